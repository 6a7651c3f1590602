// A 64-bit SimHash of a post's text, for near-duplicate detection (the
// `duplicate` moderation rule): texts that share most of their word pairs
// get hashes that differ in few bits, so "how alike are these two posts" is
// the number of differing bits (the Hamming distance) of two stored values.
// Pure and small: the text's words (folded: case, accents, punctuation and
// markup do not count), their overlapping pairs (shingles of two words) each
// hashed to 64 bits, and per bit the majority vote of the shingles.
// Kept as 16 hex digits: the same text in SQLite and PostgreSQL, exactly.
import { foldText } from './rule-text.js';

/** The detector's name in a decision's detail. */
export const SIMHASH_MODEL = 'simhash-64';
/** Words per shingle. */
export const SHINGLE_WORDS = 2;
/** Texts with fewer words get no hash (`''`): a few words repeated are not spam, just short. */
export const SIMHASH_MIN_WORDS = 3;

const ASCII = /^[\x00-\x7f]*$/;

/** A text's words, folded (lower case, no accents), without punctuation. */
export function hashWords(text: string): string[] {
  if (ASCII.test(text)) return text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  return foldText(text).match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** murmur3's finalizer: every input bit moves every output bit. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** FNV-1a over the UTF-16 units of `s`, from `seed`, finalized. */
function hash32(s: string, seed: number): number {
  let h = seed;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return fmix32(h ^ s.length);
}

const hex8 = (n: number) => (n >>> 0).toString(16).padStart(8, '0');

/**
 * The SimHash of a text (plain text: see ruleText for stored HTML) as 16
 * lower-case hex digits, or `''` when it has fewer than SIMHASH_MIN_WORDS words.
 */
export function simhash(text: string): string {
  const words = hashWords(text);
  if (words.length < SIMHASH_MIN_WORDS) return '';
  const votes = new Int32Array(64);
  for (let i = 0; i + SHINGLE_WORDS <= words.length; i++) {
    // SHINGLE_WORDS (2) words: no slice and join per shingle
    const shingle = `${words[i]!} ${words[i + 1]!}`;
    const hi = hash32(shingle, 0x811c9dc5);
    const lo = hash32(shingle, 0x050c5d1f);
    for (let b = 0; b < 32; b++) {
      votes[b]! += (hi >>> b) & 1 ? 1 : -1;
      votes[32 + b]! += (lo >>> b) & 1 ? 1 : -1;
    }
  }
  let hi = 0;
  let lo = 0;
  for (let b = 0; b < 32; b++) {
    if (votes[b]! > 0) hi |= 1 << b;
    if (votes[32 + b]! > 0) lo |= 1 << b;
  }
  return hex8(hi) + hex8(lo);
}

function popcount32(n: number): number {
  n -= (n >>> 1) & 0x55555555;
  n = (n & 0x33333333) + ((n >>> 2) & 0x33333333);
  return (Math.imul((n + (n >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** A hash's two 32-bit halves. */
export function hashHalves(hash: string): [number, number] {
  return [parseInt(hash.slice(0, 8), 16), parseInt(hash.slice(8, 16), 16)];
}

/** The number of bits two hashes (as halves) differ in: 0 (same) to 64. */
export function hammingHalves(a: readonly [number, number], b: readonly [number, number]): number {
  return popcount32(a[0] ^ b[0]) + popcount32(a[1] ^ b[1]);
}

/** The number of bits two hex hashes differ in: 0 (same) to 64. */
export function hamming(a: string, b: string): number {
  return hammingHalves(hashHalves(a), hashHalves(b));
}
