// The submission page of a wall (issue 33): attendees post a photo and/or a
// line of text from their phones, no app, no account. Pages for browsers,
// not API operations (under /walls/: left out of the OpenAPI document like
// the hosted wall page); the one POST answers JSON to a script (the error
// envelope plus the problem's code) and a page to a plain form.
//
//   GET  /walls/{id}/submit                 the page (404 page when the wall has it off)
//   GET  /walls/{id}/submit/poster.svg      a printable poster: the page's QR code, the wall's name, a call to post
//   GET  /walls/{id}/submit/challenge       a fresh proof-of-work challenge (ALTCHA v1, signed by the wall's key)
//   POST /walls/{id}/submit                 the upload (multipart: altcha, name, text, consent, photo)
//   GET  /walls/{id}/submit/delete/{token}  the author's erasure: a confirmation page
//   POST /walls/{id}/submit/delete/{token}  … and the erasure
//
// The order of the checks keeps refusals cheap: the kill switch, the
// per-address and per-wall limits (before the body is read), the challenge
// (before the photo is read: the form sends it first; once only), then the
// photo read up to the wall's cap, its type from its bytes, its pixels from
// its header, and only then decoded (src/media/upload.ts).
import multipart from '@fastify/multipart';
import { createChallenge, verifySolution } from 'altcha-lib/v1';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { clientKey } from '../../domain/client-address.js';
import {
  fillWords,
  plainUploadText,
  UPLOAD_LIMITS,
  UPLOAD_PROBLEM_STATUS,
  uploadWords,
  type UploadProblem,
} from '../../domain/uploads.js';
import { writeUpload } from '../../ingest/upload.js';
import { mediaKey } from '../../media/names.js';
import { storeUploadedPicture } from '../../media/upload.js';
import { DEFAULT_PROCESS_OPTIONS } from '../../media/types.js';
import { middleWidth, mediaUrl } from '../../presenters/media.js';
import { findWall } from '../../store/walls.js';
import {
  deleteUploadByToken,
  findSubmission,
  findUploadByToken,
  spendChallenge,
  uploadWallOf,
  type StoredSubmission,
} from '../../store/uploads.js';
import { errorEnvelope } from '../envelope.js';
import { registerRateLimits } from '../rate-limit.js';
import { requestBase } from '../self-url.js';
import { DEFAULT_WEB_DIST, WebAssets } from '../web/assets.js';
import { sendHtml } from '../web/page.js';
import { formPage, messagePage, type RenderedPage, type SubmitLook } from './page.js';
import { posterSvg } from './poster.js';

/** How hard the challenge is: the browser tries up to this many hashes (half on average; well under a second on a phone). */
export const CHALLENGE_MAX_NUMBER = 250_000;
/** How long a challenge may be solved and sent in. */
const CHALLENGE_TTL_S = 15 * 60;
const hide = { hide: true } as const;
const WALL_ID = /^[1-9][0-9]{0,15}$/;
const TOKEN = /^[A-Za-z0-9_-]{32,64}$/;

type Params = { wallId: string };

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

interface Opened {
  wallId: number;
  settings: StoredSubmission;
  look: SubmitLook;
}

export async function registerSubmit(app: FastifyInstance): Promise<void> {
  const db = () => app.ctx.store.db;
  // the page's script: web/submit/ built with the embed (hashed, immutable, served under /assets/)
  const assets = new WebAssets(DEFAULT_WEB_DIST);
  const scriptSrc = (): string | null => {
    const file = assets.entryFile('submit');
    if (!file) app.log.warn('the submission page script was not built: run npm run build');
    return file ? `/${file}` : null;
  };

  /** The wall and its submission page, when the page is on (the kill switch off). */
  async function open(wallIdParam: string): Promise<Opened | null> {
    if (!WALL_ID.test(wallIdParam)) return null;
    const wallId = Number(wallIdParam);
    const [wall, settings] = await Promise.all([findWall(db(), wallId, { live: true }), findSubmission(db(), wallId)]);
    if (!wall || !settings || !settings.enabled) return null;
    return {
      wallId,
      settings,
      look: {
        wallName: wall.name,
        title: settings.title,
        branding: wall.branding,
        theme: wall.theme,
        language: settings.language,
        words: uploadWords(settings.language),
      },
    };
  }

  const send = (reply: FastifyReply, status: number, page: RenderedPage) =>
    sendHtml(reply, status, page.html, page.csp, { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });

  const closed = (reply: FastifyReply) => {
    const words = uploadWords('en');
    return send(
      reply,
      404,
      messagePage(
        { wallName: 'Wallery', title: null, branding: null, theme: null, language: 'en', words },
        words.closedTitle,
        words.closedText,
      ),
    );
  };

  app.get<{ Params: Params }>('/walls/:wallId/submit', { schema: hide }, async (request, reply) => {
    const opened = await open(request.params.wallId);
    if (!opened) return closed(reply);
    const path = `/walls/${opened.wallId}/submit`;
    return send(
      reply,
      200,
      formPage(
        opened.look,
        {
          action: path,
          terms: opened.settings.terms,
          consentText: opened.settings.consentText,
          maxBytes: opened.settings.maxBytes,
        },
        scriptSrc(),
      ),
    );
  });

  app.get<{ Params: Params }>('/walls/:wallId/submit/poster.svg', { schema: hide }, async (request, reply) => {
    const opened = await open(request.params.wallId);
    if (!opened) return closed(reply);
    const url = `${requestBase(request)}/walls/${opened.wallId}/submit`;
    return reply
      .type('image/svg+xml; charset=utf-8')
      .header('Cache-Control', 'no-store')
      .header('Content-Security-Policy', "default-src 'none'")
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Disposition', `inline; filename="wall-${opened.wallId}-poster.svg"`)
      .send(posterSvg(opened.look.wallName, url, opened.look.words, opened.look.language));
  });

  await app.register(async (scope) => {
    await registerRateLimits(scope, 'submit-rate');
    await scope.register(multipart, {
      limits: {
        fileSize: UPLOAD_LIMITS.maxBytesCeiling,
        files: 1,
        fields: 8,
        fieldSize: 16 * 1024,
        parts: 10,
        headerPairs: 200,
      },
    });
    const settingsOf = new WeakMap<FastifyRequest, StoredSubmission>();
    const perIp = scope.createRateLimit({
      max: (r) => settingsOf.get(r)?.perIpPerHour ?? 1,
      timeWindow: 3600_000,
      keyGenerator: (r) => `ip:${clientKey(r.ip)}`,
    });
    const perWall = scope.createRateLimit({
      max: (r) => settingsOf.get(r)?.perWallPerMinute ?? 1,
      timeWindow: 60_000,
      keyGenerator: (r) => `wall:${settingsOf.get(r)?.wallId ?? 0}`,
    });
    const perIpChallenges = scope.createRateLimit({
      max: 120,
      timeWindow: 3600_000,
      keyGenerator: (r) => `challenge-ip:${clientKey(r.ip)}`,
    });

    scope.get<{ Params: Params }>('/walls/:wallId/submit/challenge', { schema: hide }, async (request, reply) => {
      const opened = await open(request.params.wallId);
      reply.header('Cache-Control', 'no-store');
      if (!opened) return problem(reply, 'closed', uploadWords('en'), 0);
      if (await exceeded(perIpChallenges, request))
        return problem(reply, 'rate_ip', opened.look.words, opened.settings.maxBytes);
      return createChallenge({
        hmacKey: opened.settings.challengeKey,
        maxNumber: CHALLENGE_MAX_NUMBER,
        expires: new Date(app.ctx.now() + CHALLENGE_TTL_S * 1000),
        params: { wall: String(opened.wallId) },
      });
    });

    scope.post<{ Params: Params }>('/walls/:wallId/submit', { schema: hide }, async (request, reply) => {
      const opened = await open(request.params.wallId);
      const words = opened?.look.words ?? uploadWords('en');
      if (!opened) return problem(reply, 'closed', words, 0);
      const { settings, wallId } = opened;
      settingsOf.set(request, settings);
      if (await exceeded(perIp, request)) return problem(reply, 'rate_ip', words, settings.maxBytes);
      if (await exceeded(perWall, request)) return problem(reply, 'rate_wall', words, settings.maxBytes);
      if (!request.isMultipart()) return problem(reply, 'malformed', words, settings.maxBytes);

      const fields: Record<string, string> = {};
      let photo: Buffer | null = null;
      let solved = false;
      try {
        for await (const part of request.parts({ limits: { fileSize: settings.maxBytes } })) {
          if (part.type === 'field') {
            fields[part.fieldname] = typeof part.value === 'string' ? part.value : '';
            if (part.fieldname === 'altcha') {
              const verdict = await checkSolution(fields.altcha!, settings, wallId);
              if (verdict !== null) return problem(reply, verdict, words, settings.maxBytes);
              solved = true;
            }
            continue;
          }
          // the photo is read only after a solved challenge: the form sends that first
          if (!solved) return problem(reply, 'challenge', words, settings.maxBytes);
          if (part.fieldname !== 'photo' || photo !== null)
            return problem(reply, 'malformed', words, settings.maxBytes);
          photo = await part.toBuffer();
          if (photo.length === 0) photo = null;
        }
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (code === 'FST_REQ_FILE_TOO_LARGE') return problem(reply, 'too_large', words, settings.maxBytes);
        request.log.info({ err: String(err) }, 'upload body could not be read');
        return problem(reply, 'malformed', words, settings.maxBytes);
      }
      if (!solved) return problem(reply, 'challenge', words, settings.maxBytes);

      const text = plainUploadText(fields.text ?? '', UPLOAD_LIMITS.textMax, false);
      const name = plainUploadText(fields.name ?? '', UPLOAD_LIMITS.nameMax, true);
      if (photo === null && text === '') return problem(reply, 'empty', words, settings.maxBytes);
      if (name === '') return problem(reply, 'name', words, settings.maxBytes);
      if (fields.consent !== 'yes') return problem(reply, 'consent', words, settings.maxBytes);
      const wall = await uploadWallOf(db(), wallId);
      if (!wall) return problem(reply, 'closed', words, settings.maxBytes);

      const base = requestBase(request);
      let picture = null;
      if (photo !== null) {
        const media = app.ctx.media;
        if (!media) {
          request.log.warn('an upload with a photo, but the media pipeline is off: photos need MEDIA_* storage');
          return problem(reply, 'unavailable', words, settings.maxBytes);
        }
        const stored = await storeUploadedPicture(media, photo, DEFAULT_PROCESS_OPTIONS.maxPixels);
        if (!stored.ok) {
          request.log.info({ wallId, reason: stored.reason }, 'upload refused');
          return problem(reply, stored.code, words, settings.maxBytes);
        }
        const p = stored.picture;
        picture = { blob: p, url: mediaUrl(base, p.hash, String(middleWidth(p.widths) ?? p.width)) };
      }

      const token = randomBytes(24).toString('base64url');
      const now = app.ctx.now();
      const written = await writeUpload(db(), {
        wallId,
        wall,
        moderation: settings.moderation,
        text,
        authorName: name,
        picture,
        consent: { version: settings.consentVersion, text: settings.consentText, at: now },
        deleteTokenHash: sha256(token),
        uploaderHash: createHmac('sha256', settings.challengeKey).update(clientKey(request.ip)).digest('hex'),
        now,
      });
      app.ctx.changes.wallChanged(wallId);
      request.log.info({ wallId, postId: written.postId, state: written.state }, 'upload received');
      const deleteUrl = `${base}/walls/${wallId}/submit/delete/${token}`;
      return reply
        .code(201)
        .header('Cache-Control', 'no-store')
        .send({ postId: written.postId, state: written.state, deleteUrl });
    });

    scope.get<{ Params: Params & { token: string } }>(
      '/walls/:wallId/submit/delete/:token',
      { schema: hide },
      async (request, reply) => {
        const look = await lookOf(request.params.wallId);
        const w = look.words;
        const upload = TOKEN.test(request.params.token)
          ? await findUploadByToken(db(), sha256(request.params.token))
          : null;
        if (!upload || String(upload.wallId) !== request.params.wallId)
          return send(reply, 404, messagePage(look, w.goneTitle, w.goneText));
        return send(
          reply,
          200,
          messagePage(look, w.deleteTitle, w.deleteText, {
            action: `/walls/${upload.wallId}/submit/delete/${request.params.token}`,
            label: w.deleteConfirm,
          }),
        );
      },
    );

    scope.post<{ Params: Params & { token: string } }>(
      '/walls/:wallId/submit/delete/:token',
      { schema: hide },
      async (request, reply) => {
        const look = await lookOf(request.params.wallId);
        const w = look.words;
        const tokenHash = TOKEN.test(request.params.token) ? sha256(request.params.token) : null;
        const upload = tokenHash ? await findUploadByToken(db(), tokenHash) : null;
        if (!upload || !tokenHash || String(upload.wallId) !== request.params.wallId)
          return send(reply, 404, messagePage(look, w.goneTitle, w.goneText));
        const unreferenced = (await deleteUploadByToken(db(), tokenHash)) ?? [];
        app.ctx.changes.wallChanged(upload.wallId);
        await removeFiles(unreferenced);
        request.log.info({ wallId: upload.wallId, postId: upload.postId }, 'upload deleted by its author');
        if (wantsJson(request)) return reply.code(200).send({ deleted: upload.postId });
        return send(reply, 200, messagePage(look, w.deletedTitle, w.deletedText));
      },
    );
  });

  /** The look of a wall's pages even when its submission page is off (an author may still delete). */
  async function lookOf(wallIdParam: string): Promise<SubmitLook> {
    const wallId = WALL_ID.test(wallIdParam) ? Number(wallIdParam) : 0;
    const [wall, settings] = await Promise.all([findWall(db(), wallId), findSubmission(db(), wallId)]);
    const language = settings?.language ?? 'en';
    return {
      wallName: wall?.name ?? 'Wallery',
      title: null,
      branding: wall?.branding ?? null,
      theme: wall?.theme ?? null,
      language,
      words: uploadWords(language),
    };
  }

  /** The files of the stored pictures no post shows any more: gone from the storage now, not at the next gc. */
  async function removeFiles(hashes: readonly string[]): Promise<void> {
    const storage = app.ctx.media?.storage;
    if (!storage) return;
    for (const hash of hashes) {
      const keys: string[] = [];
      for await (const f of storage.list(mediaKey(hash, ''))) keys.push(f.key);
      await storage.delete(keys);
    }
  }

  /** null when the solution is good and now spent; else why not. */
  async function checkSolution(
    payload: string,
    settings: StoredSubmission,
    wallId: number,
  ): Promise<UploadProblem | null> {
    let decoded: { challenge?: unknown; salt?: unknown };
    try {
      decoded = JSON.parse(Buffer.from(payload, 'base64').toString('utf8')) as typeof decoded;
    } catch {
      return 'challenge';
    }
    if (typeof decoded.challenge !== 'string' || typeof decoded.salt !== 'string') return 'challenge';
    if (!new URLSearchParams(decoded.salt.split('?')[1] ?? '').get('wall')?.match(new RegExp(`^${wallId}&?$`)))
      return 'challenge';
    if (!(await verifySolution(payload, settings.challengeKey, true).catch(() => false))) return 'challenge';
    const expires = Number(new URLSearchParams(decoded.salt.split('?')[1] ?? '').get('expires')?.replace('&', ''));
    const spent = await spendChallenge(db(), decoded.challenge, expires * 1000, app.ctx.now());
    return spent ? null : 'replay';
  }
}

/** Whether a limiter counted this request over its limit (an allow-listed key is never counted). */
async function exceeded(
  limiter: (r: FastifyRequest) => Promise<{ isAllowed: boolean; isExceeded?: boolean }>,
  r: FastifyRequest,
) {
  const verdict = await limiter(r);
  return !verdict.isAllowed && verdict.isExceeded === true;
}

const wantsJson = (request: FastifyRequest) => (request.headers.accept ?? '').includes('application/json');

/** A refusal: the error envelope, the problem's code and its message in the page's language. */
function problem(reply: FastifyReply, code: UploadProblem, words: ReturnType<typeof uploadWords>, maxBytes: number) {
  const status = UPLOAD_PROBLEM_STATUS[code];
  const message = fillWords(words.errors[code], { mb: Math.floor(maxBytes / 1024 / 1024), n: UPLOAD_LIMITS.nameMax });
  return reply
    .code(status)
    .header('Cache-Control', 'no-store')
    .type('application/json; charset=utf-8')
    .send({ ...errorEnvelope('json', status, message), problem: code });
}
