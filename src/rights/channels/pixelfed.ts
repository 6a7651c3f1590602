// Asking on Pixelfed: its API for statuses is Mastodon's (POST
// /api/v1/statuses with in_reply_to_id — a comment under the photo —,
// GET /api/v1/statuses/:id/context for the answers, a 404 once deleted),
// so the calls are the Mastodon channel's (mastodon.ts), made with the
// Pixelfed connection's server and token (scope write to post; a personal
// access token needs it too).
//
// What Pixelfed lacks: direct replies. It answers `visibility: direct`
// with 400 "Direct visibility is not available", so a request whose
// settings say direct is refused here, before anything is posted, rather
// than sent more publicly than the operator chose.
import { ChannelError, type RightsChannel } from './channel.js';
import { mastodonChannel } from './mastodon.js';

export const pixelfedChannel: RightsChannel = {
  connection: 'pixelfed',
  postNetworks: ['Pixelfed'],

  async send(ctx, post, text, options) {
    if (options.visibility === 'direct')
      throw new ChannelError(
        'Pixelfed has no direct replies and the rights settings send requests as direct messages: choose public or unlisted, or ask on Pixelfed by hand',
      );
    return mastodonChannel.send(ctx, post, text, options);
  },

  replies: (ctx, request) => mastodonChannel.replies(ctx, request),

  reply: (ctx, request, replyId) => mastodonChannel.reply(ctx, request, replyId),
};
