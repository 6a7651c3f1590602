// GET /media/{hash}/{name}: Wallery's copies of the posts' pictures, kept
// under the hash of the bytes fetched (src/media/). `name` is a width the
// picture has a rendition of — `640`, in the best format the browser's Accept
// names (AVIF, WebP, else JPEG, or PNG for a picture with alpha; the answer
// varies by Accept) — or that width in one format, `640.webp`. No other
// width is made: no resizing on demand. WebP renditions are made when the
// picture is stored; AVIF, JPEG and PNG from its master on their first
// request (once, however many ask at the same time), stored, then served.
//
// A stored file never changes (its name says its content): cached for a
// year, immutable, an ETag of hash and name. Served to any site (walls are
// embedded elsewhere), never sniffed, and never able to run as a page.
// Folder storage sends the file with @fastify/static (ranges, no copy in
// memory); S3 sends the object. Anything unknown is the server's 404; so is
// everything when the instance has no media pipeline.
import fastifyStatic from '@fastify/static';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { LRUCache } from 'lru-cache';
import { chooseFormat, contentTypeOf, isHash, mediaKey, parseRenditionName, renditionName } from '../../media/names.js';
import type { MediaServices, RenditionFormat } from '../../media/types.js';
import type { MediaServeStats } from '../../metrics/metrics.js';
import { addStoredBytes, findStoredPicture } from '../../store/media.js';
import { etagMatches } from '../etag.js';
import { MEDIA_PREFIX } from '../../presenters/media.js';
import { MediaParams, mediaResponses } from './schemas.js';

/** Every answer with a file (and its 304): cacheable anywhere for a year, readable by any site, inert. */
export const MEDIA_HEADERS = {
  'Cache-Control': 'public, max-age=31536000, immutable',
  'X-Content-Type-Options': 'nosniff',
  // a stored file opened on its own can run nothing, load nothing
  'Content-Security-Policy': "default-src 'none'; sandbox",
  'Cross-Origin-Resource-Policy': 'cross-origin',
  'Access-Control-Allow-Origin': '*',
} as const;

/** The format made when the picture is stored; the others are made on first request. */
const EAGER_FORMAT: RenditionFormat = 'webp';

/** What serving needs of a stored picture (its row never changes but for `bytes`). */
interface Blob {
  hash: string;
  widths: number[];
  animated: boolean;
  hasAlpha: boolean;
  master: string;
}

/** A rendition as a request receives it: on disk (folder storage), or its bytes. */
type Found = { path: string } | { bytes: Buffer; contentType: string };

const sendFileOptions = { etag: false, lastModified: false, cacheControl: false } as const;

/**
 * The rows of the pictures asked for lately, kept in memory a minute: a
 * rendition served from the store costs no query. (A picture garbage
 * collected meanwhile answers 404 from its storage, its files being gone.)
 */
class Blobs {
  private readonly cache = new LRUCache<string, Blob>({ max: 10_000, ttl: 60_000 });
  constructor(private readonly app: FastifyInstance) {}

  async get(hash: string): Promise<Blob | null> {
    const cached = this.cache.get(hash);
    if (cached) return cached;
    const row = await findStoredPicture(this.app.ctx.store.db, hash);
    if (!row) return null;
    let widths: number[];
    try {
      widths = (JSON.parse(row.widths) as unknown[]).filter((w): w is number => Number.isInteger(w));
    } catch {
      widths = [];
    }
    const blob = { hash, widths, animated: row.animated === 1, hasAlpha: row.has_alpha === 1, master: row.master };
    this.cache.set(hash, blob);
    return blob;
  }
}

export async function registerMedia(app: FastifyInstance): Promise<void> {
  const blobs = new Blobs(app);
  /**
   * Renditions known to be in the storage (a file never changes, it is only
   * collected with its picture), with their path in a folder storage: WebP
   * is made with the picture, the other formats are looked for once in a
   * while (a picture collected and fetched again has its eager files only).
   */
  const present = new LRUCache<string, string | true>({ max: 50_000, ttl: 600_000 });
  /** renditions being made now: concurrent first requests share one */
  const rendering = new Map<string, Promise<Found | null>>();
  const stats: MediaServeStats = { served: { store: 0, rendered: 0 } };
  if (app.ctx.metrics) app.ctx.metrics.sources.mediaServing = { stats };
  /** the headers of the answer a sendFile is about to write: set only when the file is there */
  const pending = new WeakMap<object, Record<string, string>>();

  /** The rendition's file, made from the master first when it is not stored yet; null when it cannot be. */
  async function renditionOf(
    media: MediaServices,
    blob: Blob,
    width: number,
    format: RenditionFormat,
  ): Promise<{ found: Found; rendered: boolean } | null> {
    const key = mediaKey(blob.hash, renditionName(width, format));
    let known = present.get(key);
    if (known === undefined && (format === EAGER_FORMAT || (await media.storage.has(key)))) {
      known = media.storage.localPath?.(key) ?? true;
      present.set(key, known);
    }
    if (known !== undefined) {
      if (known !== true) return { found: { path: known }, rendered: false };
      const object = await media.storage.get(key);
      return object ? { found: { bytes: object.bytes, contentType: object.contentType }, rendered: false } : null;
    }
    let making = rendering.get(key);
    if (!making) {
      making = render(media, blob, key, width, format).finally(() => rendering.delete(key));
      rendering.set(key, making);
    }
    const found = await making;
    return found ? { found, rendered: true } : null;
  }

  async function render(
    media: MediaServices,
    blob: Blob,
    key: string,
    width: number,
    format: RenditionFormat,
  ): Promise<Found | null> {
    const master = await media.storage.get(mediaKey(blob.hash, blob.master));
    if (!master) return null;
    const file = await media.processor.render(master.bytes, width, format, blob.animated);
    await media.storage.put(key, file.bytes, file.contentType);
    if (!(await addStoredBytes(app.ctx.store.db, blob.hash, file.bytes.byteLength))) {
      // the picture was deleted while this was made (its post erased, its files removed): none left behind
      await media.storage.delete([key]);
      return null;
    }
    present.set(key, media.storage.localPath?.(key) ?? true);
    return {
      bytes: Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength),
      contentType: file.contentType,
    };
  }

  await app.register(async (scope) => {
    // reply.sendFile in this scope only; no route of its own
    await scope.register(fastifyStatic, {
      serve: false,
      setHeaders: (res) => {
        for (const [name, value] of Object.entries(pending.get(res) ?? {})) res.setHeader(name, value);
      },
    });
    const route = scope.withTypeProvider<TypeBoxTypeProvider>();
    route.get(
      `${MEDIA_PREFIX}/:hash/:name`,
      {
        // the parameters are checked by the handler: a name that is not a rendition's is not found (404),
        // not a bad request; the schema documents them
        validatorCompiler: () => () => true,
        schema: {
          tags: ['media'],
          summary: 'A copy of a picture',
          description:
            'Wallery’s copy of a picture of a post (the embed API’s `copy.src` / `copy.srcset`, `avatarCopy`): ' +
            '`name` is a width the picture has a rendition of — `640`: the best format the `Accept` header names ' +
            '(AVIF, WebP, else JPEG, or PNG for a picture with transparency; the answer varies by Accept) — or ' +
            '`640.webp` (`.avif`, `.jpg`, `.png`): that format. Any other width is not found: no resizing on demand. ' +
            'Immutable: cached for a year; any site may show it.',
          params: MediaParams,
          response: mediaResponses(),
        },
      },
      async (request, reply) => {
        const media = request.server.ctx.media;
        const { hash, name } = request.params;
        const wanted = isHash(hash) ? parseRenditionName(name) : null;
        if (!media || !wanted) return reply.callNotFound();
        const blob = await blobs.get(hash);
        if (!blob || !blob.widths.includes(wanted.width)) return reply.callNotFound();
        const format = wanted.format ?? chooseFormat(request.headers.accept, blob);
        const headers: Record<string, string> = {
          ...MEDIA_HEADERS,
          ETag: `"${hash}/${renditionName(wanted.width, format)}"`,
        };
        if (wanted.format === null) headers.Vary = 'Accept';
        if (etagMatches(request.headers['if-none-match'], headers.ETag!))
          return reply.code(304).headers(headers).send();
        const rendition = await renditionOf(media, blob, wanted.width, format);
        if (!rendition) return reply.callNotFound();
        stats.served[rendition.rendered ? 'rendered' : 'store']++;
        return send(reply, rendition.found, format, headers);
      },
    );
  });

  function send(reply: FastifyReply, found: Found, format: RenditionFormat, headers: Record<string, string>) {
    if ('path' in found) {
      // the headers go out with the file only: a file gone from the disk is the server's 404, uncached
      pending.set(reply.raw, headers);
      return reply.sendFile(found.path, sendFileOptions);
    }
    return reply
      .headers(headers)
      .type(found.contentType || contentTypeOf(format))
      .send(found.bytes);
  }
}
