// The picture rules of a wall (issue 32): `image` holds (or rejects, or
// blurs) a post one of whose pictures a safety classifier scores at or over
// the rule's threshold for one of its classes; `similar_image` holds a post
// whose picture is within a Hamming distance of the perceptual hash of a
// picture another post of the wall showed shortly before (bots posting the
// same picture under a hashtag). Pure: the scores and hashes are measured in
// the media pipeline (src/media/image-check.ts) and handed in as facts.
//
// A post with pictures cannot be judged by these rules when it arrives (its
// pictures are not fetched yet): it waits, pending, for the image check
// (IMAGE_CHECK_WAIT), which judges it again with the facts.
import { explainDecision, type DecisionDetail } from './decision.js';
import type { Arrival } from './arrival.js';
import type { PostState } from './lists.js';
import { AVATAR_SLOT, pictureSourcesOf, type MediaColumns } from './media-sources.js';

/** The classifier and its version, stored with its scores: when it changes, pictures are checked again. */
export const IMAGE_MODEL = 'nsfwjs mobilenet_v2 4.4.0';
/** The perceptual hash and its version. */
export const PHASH_MODEL = 'sharp-phash 2.2.0';

/** The classes of the safety classifier (nsfwjs), in lower case. */
export const IMAGE_CLASSES = ['neutral', 'drawing', 'sexy', 'porn', 'hentai'] as const;
export type ImageClass = (typeof IMAGE_CLASSES)[number];
/** What an image rule looks for when its classes are left out. */
export const DEFAULT_IMAGE_CLASSES: ImageClass[] = ['porn', 'hentai', 'sexy'];
export const DEFAULT_IMAGE_THRESHOLD = 0.8;
/** Bits of the perceptual hash (sharp-phash: 64). */
export const PHASH_BITS = 64;
export const DEFAULT_SIMILAR_DISTANCE = 6;
export const DEFAULT_SIMILAR_HOURS = 24;

/** Each class's probability (0–1) for one picture. */
export type ClassScores = Record<ImageClass, number>;

/** One of a post's pictures, as the image check saw it. */
export interface CheckedPicture {
  /** the classifier's scores; null when the picture could not be fetched or classified */
  scores: ClassScores | null;
  /** why it has no scores (`the picture could not be fetched: HTTP 404`) */
  problem: string | null;
}

/** A picture of another post of the wall near one of this post's pictures. */
export interface SimilarPicture {
  postId: number;
  /** Hamming distance between the perceptual hashes, 0–64 */
  distance: number;
  /** how long before this post the other post arrived (hours, ≥ 0) */
  hoursBefore: number;
}

/** What the image check found of a post's pictures (its items', not its author's avatar). */
export interface PictureFacts {
  pictures: CheckedPicture[];
  /** the classifier and its version (`nsfwjs mobilenet_v2 4.4.0`) */
  model: string;
  /** the perceptual hash's maker and version (`sharp-phash 2.2.0`) */
  hasher: string;
  /** pictures of earlier posts of the wall near this post's, within the longest window of the wall's rules */
  similar: SimilarPicture[];
}

export type ImageRuleFields =
  | { kind: 'image'; classes: ImageClass[]; threshold: number }
  | { kind: 'similar_image'; distance: number; withinHours: number };

/** The pending arrival of a post whose pictures the wall's picture rules must see first. */
export const IMAGE_CHECK_WAIT: Arrival = Object.freeze({
  state: 'pending',
  by: 'check:image',
  reason: 'waiting for the image check',
});

/** A post waits for the image check while `decided_by` is this. */
export const IMAGE_CHECK_BY = IMAGE_CHECK_WAIT.by!;

export const isPictureRuleKind = (kind: string): kind is ImageRuleFields['kind'] =>
  kind === 'image' || kind === 'similar_image';

/** The slot name of an author's avatar (not judged by the picture rules). */
export const AVATAR_SLOT_NAME: string = AVATAR_SLOT;

/** Whether a stored rule list (JSON) has a picture rule: cheaper than parsing it, for every page ingested. */
const PICTURE_KIND = /"kind"\s*:\s*"(?:image|similar_image)"/;
export const hasPictureRules = (rulesJson: string): boolean => PICTURE_KIND.test(rulesJson);

/** Whether a post shows pictures the picture rules judge: its items' (a video's poster too), not its author's avatar. */
export const hasItemPictures = (post: MediaColumns): boolean =>
  pictureSourcesOf(post).some((s) => s.slot !== AVATAR_SLOT);

/** What a picture rule found: its detail, or a picture it could not judge. */
export type PictureFinding = { detail: DecisionDetail } | { unchecked: string } | null;

/**
 * Judges a post's pictures by one picture rule: the highest score of the
 * rule's classes at or over its threshold (or the nearest earlier picture
 * within its distance and window) → the detail; else, when a picture has no
 * facts, that picture (a human must look); else null.
 */
export function pictureFinding(rule: ImageRuleFields & { id: string }, facts: PictureFacts): PictureFinding {
  if (rule.kind === 'image') {
    let best: { label: ImageClass; score: number } | null = null;
    for (const p of facts.pictures) {
      if (p.scores === null) continue;
      for (const c of rule.classes) {
        const score = p.scores[c];
        if (score >= rule.threshold && (best === null || score > best.score)) best = { label: c, score };
      }
    }
    if (best !== null)
      return {
        detail: {
          rule: rule.id,
          kind: 'image',
          label: best.label,
          score: round(best.score),
          threshold: rule.threshold,
          model: facts.model,
        },
      };
  } else {
    let near: SimilarPicture | null = null;
    for (const s of facts.similar) {
      if (s.distance > rule.distance || s.hoursBefore > rule.withinHours) continue;
      if (near === null || s.distance < near.distance) near = s;
    }
    if (near !== null)
      return {
        detail: {
          rule: rule.id,
          kind: 'similar_image',
          label: `post ${near.postId}`,
          score: near.distance,
          threshold: null,
          model: facts.hasher,
        },
      };
  }
  const missing = facts.pictures.find((p) => p.scores === null);
  return missing ? { unchecked: missing.problem ?? 'a picture could not be checked' } : null;
}

/** Four decimals are plenty for a probability, and keep the stored detail short. */
const round = (n: number) => Math.round(n * 10_000) / 10_000;

/** The arrival a picture rule's finding gives: its action, with the explained detail. */
export function pictureArrival(rule: { id: string }, state: PostState, detail: DecisionDetail): Arrival {
  return { state, by: `rule:${rule.id}`, reason: explainDecision(state, detail), detail };
}

/** A post a picture rule could not judge (a picture not fetched or not classified): held for a human, never approved. */
export function uncheckedArrival(rule: { id: string; kind: string }, problem: string): Arrival {
  return { state: 'pending', by: `rule:${rule.id}`, reason: `held: ${rule.kind} check could not run — ${problem}` };
}

/** Hamming distance of two hashes written as hex (16 digits for 64 bits). */
export function hammingHex(a: string, b: string): number {
  let d = 0;
  for (let i = 0; i < a.length && i < b.length; i += 8) {
    let x = (parseInt(a.slice(i, i + 8), 16) ^ parseInt(b.slice(i, i + 8), 16)) >>> 0;
    while (x !== 0) {
      x &= x - 1;
      d++;
    }
  }
  return d;
}

/** sharp-phash's answer (a string of 64 `0`/`1`) → 16 hex digits. */
export function phashHex(bits: string): string {
  let out = '';
  for (let i = 0; i < bits.length; i += 4) out += parseInt(bits.slice(i, i + 4), 2).toString(16);
  return out;
}
