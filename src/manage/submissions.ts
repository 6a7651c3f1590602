// A wall's submission page settings (attendee uploads): read, change. The
// write is audited; it announces the wall, since the embed API's wall answer
// points the event screen's QR code at the page while it is on.
import type { Kysely } from 'kysely';
import { randomBytes } from 'node:crypto';
import type { Database } from '../store/schema.js';
import { defaultSubmission, findSubmission, saveSubmissionIn, type StoredSubmission } from '../store/uploads.js';
import type { SubmissionInput, SubmissionRecord } from '../schemas/submissions.js';
import { audited, type Op } from './op.js';
import { requireWall } from './walls.js';

/** The public submission page of a wall, under `base` (the instance's URL). */
export const submissionUrl = (base: string, wallId: number) => `${base}/walls/${wallId}/submit`;

function record(s: StoredSubmission, base: string): SubmissionRecord {
  const url = submissionUrl(base, s.wallId);
  return {
    wallId: s.wallId,
    enabled: s.enabled,
    title: s.title,
    terms: s.terms,
    consentText: s.consentText,
    consentVersion: s.consentVersion,
    moderation: s.moderation,
    language: s.language,
    maxBytes: s.maxBytes,
    perIpPerHour: s.perIpPerHour,
    perWallPerMinute: s.perWallPerMinute,
    url,
    posterUrl: `${url}/poster.svg`,
  };
}

/** What an audit entry keeps of the settings (never the challenges' key). */
const audit = ({ challengeKey: _key, ...settings }: StoredSubmission) => settings;

/** The wall's settings (off, the defaults, when it never had any). */
export async function getSubmission(db: Kysely<Database>, wallId: number, base: string): Promise<SubmissionRecord> {
  await requireWall(db, wallId);
  return record((await findSubmission(db, wallId)) ?? defaultSubmission(wallId, ''), base);
}

/** Changes the fields given; the first write makes the wall's challenge key. */
export async function putSubmission(
  op: Op,
  wallId: number,
  input: SubmissionInput,
  base: string,
): Promise<SubmissionRecord> {
  return audited(op, async (tx) => {
    await requireWall(tx.trx, wallId);
    const before = (await findSubmission(tx.trx, wallId)) ?? defaultSubmission(wallId, '');
    const after = await saveSubmissionIn(tx.trx, wallId, input, randomBytes(32).toString('hex'), op.now);
    tx.audit({
      action: 'wall.submission.set',
      targetType: 'wall',
      targetId: wallId,
      before: audit(before),
      after: audit(after),
    });
    tx.wallChanged(wallId);
    return record(after, base);
  });
}
