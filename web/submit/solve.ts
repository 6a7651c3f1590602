// The proof-of-work of the submission page (ALTCHA's v1 scheme): find the
// number n with SHA-256(salt + n) = challenge, trying 0 … maxnumber. SHA-256
// is @noble/hashes', not crypto.subtle: that exists only in a secure context,
// and an event's server is often plain http on the venue's network. The
// search runs in slices so the page stays responsive while it is filled in.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/** A challenge as GET …/submit/challenge sends it. */
export interface Challenge {
  algorithm: string;
  challenge: string;
  maxnumber: number;
  salt: string;
  signature: string;
}

/** hashes tried between two yields to the page (a few ms on a phone) */
const SLICE = 4_000;

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** The number that solves `c`, or null when none up to its maxnumber does. */
export async function solveChallenge(c: Challenge): Promise<number | null> {
  for (let n = 0; n <= c.maxnumber;) {
    const end = Math.min(n + SLICE, c.maxnumber + 1);
    for (; n < end; n++) {
      if (bytesToHex(sha256(utf8ToBytes(c.salt + n))) === c.challenge) return n;
    }
    await nextTask();
  }
  return null;
}

/** The form field `altcha`: the solved challenge as ALTCHA's servers read it (base64 JSON). */
export function altchaPayload(c: Challenge, number: number): string {
  return btoa(
    JSON.stringify({ algorithm: c.algorithm, challenge: c.challenge, number, salt: c.salt, signature: c.signature }),
  );
}
