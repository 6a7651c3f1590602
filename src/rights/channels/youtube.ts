// Asking on YouTube: the YouTube Data API cannot reply to a video, only
// comment on it, so the request is a top-level comment on the video
// (POST commentThreads?part=snippet, 50 quota units) made with the YouTube
// connection's Google sign-in (scope youtube.force-ssl; an API key cannot
// write). The video's channel (videos?part=snippet&id=, snippet.channelId)
// is whose answer counts: its replies in the request's thread
// (comments?part=snippet&parentId=, snippet.authorChannelId.value). A
// grant is read again with comments?id= (gone once deleted).
//
// Quota: a read of the answers costs 1 unit of the Google Cloud project's
// 10,000 a day, so a waiting request is read every 15 minutes (96 units a
// day). A live chat message is no video: it cannot be commented on and is
// asked by hand.
import { parseInstant, plainText } from '../../ingest/normalize.js';
import { hostOf } from '../../ingest/url-parts.js';
import { YOUTUBE_API_URL } from '../../ingest/youtube-data.js';
import { ChannelError, type AskedPost, type ChannelContext, type HeardReply, type RightsChannel } from './channel.js';
import { callJson, isObject } from './http.js';

type Json = Record<string, unknown>;

interface YoutubeRef {
  base: string;
  videoId: string;
}

/** pages of replies read per listen, at most (100 each) */
const REPLY_PAGES = 3;

const strip = (url: string) => url.replace(/\/+$/, '');
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const items = (json: unknown): Json[] =>
  isObject(json) && Array.isArray(json.items) ? json.items.filter(isObject) : [];

function auth(ctx: ChannelContext): Record<string, string> {
  const token = ctx.credential.accessToken;
  if (!token)
    throw new ChannelError(
      ctx.credential.apiKey
        ? 'the YouTube connection is an API key, which cannot comment: connect YouTube by signing in with Google to ask by reply'
        : 'the YouTube connection holds no access token: reconnect it',
    );
  return { authorization: `Bearer ${token}` };
}

/** Google's error reasons (`error.errors[].reason`, `error.details[].reason`). */
function reasonsOf(json: unknown): string[] {
  const error = isObject(json) && isObject(json.error) ? json.error : null;
  if (!error) return [];
  const of = (list: unknown) => (Array.isArray(list) ? list.filter(isObject).map((e) => str(e.reason)) : []);
  return [...of(error.errors), ...of(error.details)].filter((r) => r !== '');
}

/** 403s about this video or the quota, not the connection. */
const NOT_THE_CONNECTION = new Set([
  'commentsDisabled',
  'quotaExceeded',
  'dailyLimitExceeded',
  'rateLimitExceeded',
  'userRateLimitExceeded',
  'RATE_LIMIT_EXCEEDED',
]);

function refusesCredentials(status: number, json: unknown): boolean {
  if (status === 401) return true;
  return status === 403 && !reasonsOf(json).some((r) => NOT_THE_CONNECTION.has(r));
}

const watchUrl = (videoId: string, commentId?: string) =>
  `https://www.youtube.com/watch?v=${encodeURIComponent(videoId)}${commentId ? `&lc=${encodeURIComponent(commentId)}` : ''}`;

function baseOf(post: AskedPost): string {
  const c = post.connector;
  return strip(c?.kind === 'youtube_data' && typeof c.apiBaseUrl === 'string' ? c.apiBaseUrl : YOUTUBE_API_URL);
}

function heard(comment: Json, videoId: string): HeardReply | null {
  const id = str(comment.id);
  const snippet = isObject(comment.snippet) ? comment.snippet : null;
  const channel = snippet && isObject(snippet.authorChannelId) ? str(snippet.authorChannelId.value) : '';
  if (id === '' || !snippet || channel === '') return null;
  const at = parseInstant(snippet.publishedAt) ?? 0;
  const updated = parseInstant(snippet.updatedAt);
  return {
    id,
    url: watchUrl(videoId, id),
    // textDisplay, asked for as plain text (textOriginal is returned to its author only)
    text: plainText(str(snippet.textDisplay) || str(snippet.textOriginal)),
    authorRef: channel,
    at,
    editedAt: updated !== null && updated > at ? updated : null,
  };
}

function refOf(request: { ref: unknown }): YoutubeRef {
  const ref = request.ref as YoutubeRef | null;
  if (!ref?.base || !ref.videoId) throw new ChannelError('the request names no YouTube video to read');
  return { base: strip(ref.base), videoId: ref.videoId };
}

export const youtubeChannel: RightsChannel = {
  connection: 'youtube',
  postNetworks: ['YouTube'],
  listenEveryMs: 15 * 60_000,

  async send(ctx, post, text) {
    if (post.connector?.kind === 'youtube_data' && post.connector.mode === 'live_chat')
      throw new ChannelError('a live chat message cannot be answered through the YouTube API: ask its author by hand');
    const videoId = post.externalId;
    if (!/^[A-Za-z0-9_-]{11}$/.test(videoId)) throw new ChannelError(`the post's YouTube id ${videoId} is no video's`);
    const base = baseOf(post);
    const headers = auth(ctx);
    const videos = await callJson<Json>(ctx, {
      url: `${base}/videos?part=snippet&id=${encodeURIComponent(videoId)}`,
      headers,
      what: 'reading the video',
      refusesCredentials,
    });
    const video = items(videos).find((v) => v.id === videoId);
    const channel = video && isObject(video.snippet) ? str(video.snippet.channelId) : '';
    if (!video) throw new ChannelError('the video is no longer on YouTube, or not public');
    if (channel === '') throw new ChannelError(`${hostOf(base)} did not say whose channel the video is on`);
    const thread = await callJson<Json>(ctx, {
      url: `${base}/commentThreads?part=snippet`,
      method: 'POST',
      headers,
      body: { snippet: { videoId, topLevelComment: { snippet: { textOriginal: text } } } },
      what: `commenting the request on ${hostOf(base)}`,
      refusesCredentials,
    });
    const id = str(thread?.id);
    if (id === '') throw new ChannelError(`${hostOf(base)} did not say which comment the request became`);
    const ref: YoutubeRef = { base, videoId };
    return { id, url: watchUrl(videoId, id), ref, authorRef: channel };
  },

  async replies(ctx, request) {
    const ref = refOf(request);
    const out: HeardReply[] = [];
    let pageToken = '';
    for (let page = 0; page < REPLY_PAGES; page++) {
      const q = new URLSearchParams({
        part: 'snippet',
        parentId: request.id,
        maxResults: '100',
        textFormat: 'plainText',
      });
      if (pageToken) q.set('pageToken', pageToken);
      const found = await callJson<Json>(ctx, {
        url: `${ref.base}/comments?${q}`,
        headers: auth(ctx),
        what: 'reading the answers',
        refusesCredentials,
      });
      out.push(...items(found).flatMap((c) => heard(c, ref.videoId) ?? []));
      pageToken = isObject(found) ? str(found.nextPageToken) : '';
      if (!pageToken) break;
    }
    return out.sort((a, b) => a.at - b.at);
  },

  async reply(ctx, request, replyId) {
    const ref = refOf(request);
    const q = new URLSearchParams({ part: 'snippet', id: replyId, textFormat: 'plainText' });
    const found = await callJson<Json>(ctx, {
      url: `${ref.base}/comments?${q}`,
      headers: auth(ctx),
      what: 'reading the answer again',
      refusesCredentials,
      nullOn: [404],
    });
    const comment = items(found).find((c) => c.id === replyId);
    return comment ? heard(comment, ref.videoId) : null;
  },
};
