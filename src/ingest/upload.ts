// An attendee's upload becomes a post the way a polled one does: normalized
// by the connectors' normalizer (plain text to safe HTML, hashtags to tags,
// hidden when profane on a wall that filters profanity), its language
// detected, judged by the wall's rules (and, with pictures on a wall with
// picture rules, held for the image check), then placed by the upload
// moderation: `queue` holds what would be published. Written with its
// consent and its token's digest in one transaction (src/store/uploads.ts).
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { loadTextDetectors } from '../domain/text-detectors.js';
import { UPLOAD_NETWORK, uploadArrival, type UploadModeration } from '../domain/uploads.js';
import { arrivalOf, detectRowLanguages, historyOf, judgeRows } from './arrival.js';
import { postRows, textToHtml } from './normalize.js';
import { upstreamHash } from './upstream-hash.js';
import type { BlobRecord } from '../store/media-queue.js';
import type { Database } from '../store/schema.js';
import { insertUpload, type UploadWall } from '../store/uploads.js';

export interface UploadPost {
  wallId: number;
  wall: UploadWall;
  moderation: UploadModeration;
  text: string;
  authorName: string;
  /** the stored picture and the URL of its copy, or null for a text post */
  picture: { blob: BlobRecord; url: string } | null;
  consent: { version: number; text: string; at: number };
  deleteTokenHash: string;
  uploaderHash: string;
  now: number;
}

/** Writes the upload; returns its post id and the state it arrived in. */
export async function writeUpload(db: Kysely<Database>, u: UploadPost) {
  const { rows } = postRows(
    [
      {
        externalId: `upload-${randomBytes(12).toString('hex')}`,
        content: u.text === '' ? '' : textToHtml(u.text),
        authorName: u.authorName,
        username: '',
        userPicture: '',
        linkUrl: '',
        createdAt: u.now,
        updatedAt: u.now,
        media: u.picture ? [{ kind: 'image', url: u.picture.url, thumb: '' }] : [],
        tags: hashtags(u.text),
        sensitive: false,
      },
    ],
    { network: UPLOAD_NETWORK, wallProfanity: u.wall.profanity, now: u.now, maxItems: 1 },
  );
  const detectors = await loadTextDetectors();
  detectRowLanguages(rows, detectors);
  judgeRows(rows, u.wall.rules, detectors);
  const byMode = arrivalOf(u.wall.wallModeration);
  return insertUpload(db, {
    wallId: u.wallId,
    moderation: u.moderation,
    post: rows[0]!,
    decisions: {
      fingerprint: upstreamHash,
      arrival: (p) => uploadArrival(u.moderation, byMode(p)),
      history: historyOf(u.wall.rules),
    },
    picture: u.picture?.blob ?? null,
    consent: u.consent,
    deleteTokenHash: u.deleteTokenHash,
    uploaderHash: u.uploaderHash,
    now: u.now,
  });
}

const hashtags = (text: string): string[] => [...text.matchAll(/#([\p{L}\p{N}_]{1,60})/gu)].map((m) => m[1]!);
