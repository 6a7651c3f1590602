// Rights management for operators (the management API and the CLI): an
// account's settings, asking for a wall's posts, a post's rights with their
// evidence, answers recorded by hand, the opt-out list and the evidence
// report (JSON, CSV, PDF). The asking and hearing themselves are src/rights/service.ts.
import type { Kysely } from 'kysely';
import { stringify } from 'csv-stringify/sync';
import { authorKey, DEFAULT_RIGHTS_SETTINGS, templateProblems, type RightsState } from '../domain/rights.js';
import { conflict, found, invalid, notFound } from '../domain/errors.js';
import { iso, isoOrNull } from '../domain/dates.js';
import { rightsReportPdf, type ReportHeading } from '../rights/report-pdf.js';
import { requestRights, recordAnswer, type RightsDeps } from '../rights/service.js';
import { findConnection } from '../store/connections.js';
import type { Database } from '../store/schema.js';
import { findWall } from '../store/walls.js';
import {
  addOptOut,
  findOptOut,
  findPostRights,
  findRightsSettings,
  listOptOuts,
  postIdsOnWall,
  rightsPostOfWall,
  removeOptOut,
  rightsEventsOf,
  rightsForReport,
  saveRightsSettings,
  type OptOutRow,
  type StoredRightsSettings,
} from '../store/rights.js';
import { findAccount } from '../store/accounts.js';
import { audited, type Op } from './op.js';
import type {
  OptOutBody,
  OptOutRecord,
  RequestOutcomes,
  RightsAnswerBody,
  RightsRecord,
  RightsReport,
  RightsReportRow,
  RightsSettingsPatch,
  RightsSettingsRecord,
} from '../schemas/rights.js';

// ---------- settings ----------

async function requireAccount(db: Kysely<Database>, accountId: number): Promise<void> {
  if (!(await findAccount(db, accountId))) throw notFound('account', accountId);
}

export async function getRightsSettings(db: Kysely<Database>, accountId: number): Promise<RightsSettingsRecord> {
  await requireAccount(db, accountId);
  return findRightsSettings(db, accountId);
}

export async function updateRightsSettings(
  op: Op,
  accountId: number,
  change: RightsSettingsPatch,
): Promise<RightsSettingsRecord> {
  return audited(op, async (tx) => {
    await requireAccount(tx.trx, accountId);
    const before = await findRightsSettings(tx.trx, accountId);
    const after: StoredRightsSettings = {
      ...before,
      ...change,
      ...(change.grantHashtag !== undefined ? { grantHashtag: change.grantHashtag.replace(/^#/, '') } : {}),
    } as StoredRightsSettings;
    const problems = templateProblems(after).map((message) => ({ field: 'template', message }));
    for (const [network, id] of Object.entries(after.connections)) {
      const c = await findConnection(tx.trx, id);
      if (!c || c.account_id !== accountId)
        problems.push({
          field: `connections.${network}`,
          message: `connection ${id} is not a connection of account ${accountId}`,
        });
      else if (c.network !== network)
        problems.push({
          field: `connections.${network}`,
          message: `connection ${id} is a ${c.network} connection, not ${network}`,
        });
    }
    if (problems.length > 0) throw invalid(problems);
    await saveRightsSettings(tx.trx, accountId, after, op.now);
    tx.audit({ action: 'rights.settings', targetType: 'account', targetId: accountId, accountId, before, after });
    return after;
  });
}

// ---------- asking ----------

/** Asks for the rights to posts of a wall (each refused or asked on its own); the outcomes in the order given. */
export async function requestWallRights(
  op: Op,
  deps: RightsDeps,
  wallId: number,
  postIds: readonly number[],
  method: 'reply' | 'manual' | undefined,
): Promise<RequestOutcomes> {
  const wall = found(await findWall(op.db, wallId), 'wall', wallId);
  if (wall.deleted_at !== null) throw conflict(`wall ${wallId} is deleted`);
  const ofWall = await postIdsOnWall(op.db, wallId, postIds);
  const unique = [...new Set(postIds)];
  const outcomes = await requestRights(
    deps,
    unique.filter((id) => ofWall.has(id)),
    { actor: op.actor.name, ...(method ? { method } : {}) },
  );
  const byId = new Map(outcomes.map((o) => [o.postId, o]));
  const records = unique.map((postId) => {
    const o = byId.get(postId);
    if (!o)
      return {
        postId,
        ok: false,
        state: null,
        method: null,
        text: null,
        requestUrl: null,
        problem: 'not_found' as const,
        reason: `post ${postId} is not on wall ${wallId}`,
      };
    return o.ok
      ? {
          postId,
          ok: true,
          state: o.state,
          method: o.method,
          text: o.text,
          requestUrl: o.requestUrl,
          problem: null,
          reason: null,
        }
      : {
          postId,
          ok: false,
          state: null,
          method: null,
          text: null,
          requestUrl: null,
          problem: o.status,
          reason: o.reason,
        };
  });
  const asked = records.filter((r) => r.ok).map((r) => r.postId);
  await audited(op, async (tx) => {
    tx.audit({
      action: 'rights.request',
      targetType: 'wall',
      targetId: wallId,
      details: { asked, refused: records.filter((r) => !r.ok).map((r) => r.postId) },
    });
    if (asked.length > 0) tx.wallChanged(wallId);
  });
  return { asked: asked.length, outcomes: records };
}

// ---------- a post's rights ----------

async function postOfWall(db: Kysely<Database>, wallId: number, postId: number) {
  const wall = found(await findWall(db, wallId), 'wall', wallId);
  const post = await rightsPostOfWall(db, wallId, postId);
  return { wall, post: found(post, 'post', postId) };
}

export async function getPostRights(db: Kysely<Database>, wallId: number, postId: number): Promise<RightsRecord> {
  const { wall, post } = await postOfWall(db, wallId, postId);
  const [row, events] = await Promise.all([findPostRights(db, postId), rightsEventsOf(db, postId)]);
  const author = row?.author ?? authorKey(post.network_name, post.username);
  const optedOut = (await findOptOut(db, wall.account_id, author)) !== undefined;
  return {
    postId,
    wallId,
    state: post.rights_state,
    held: post.rights_hold !== 0,
    network: row?.network ?? post.network_name,
    author,
    authorName: row?.author_name ?? post.author_name,
    postUrl: row?.post_url ?? post.link_url,
    method: row?.method ?? null,
    requestText: row ? row.request_text || null : null,
    requestUrl: row?.request_url ?? null,
    requestedAt: row ? iso(row.requested_at) : null,
    requestedBy: row?.requested_by ?? null,
    expiresAt: isoOrNull(row?.expires_at ?? null),
    answerUrl: row?.answer_url ?? null,
    answerText: row?.answer_text ?? null,
    answeredAt: isoOrNull(row?.answered_at ?? null),
    answerEditedAt: isoOrNull(row?.answer_edited_at ?? null),
    decidedBy: row?.decided_by ?? null,
    note: row?.note ?? null,
    optedOut,
    events: events.map((e) => {
      const d = JSON.parse(e.detail) as {
        state?: RightsState;
        url?: string;
        text?: string;
        note?: string;
        reason?: string;
      };
      return {
        at: iso(e.at),
        kind: e.kind,
        actor: e.actor,
        state: d.state ?? (e.kind === 'requested' ? 'requested' : null),
        url: d.url ?? null,
        text: d.text ?? null,
        note: d.note ?? d.reason ?? null,
      };
    }),
  };
}

/** Records an answer given outside a reply Wallery reads; the post's rights after it. */
export async function recordPostAnswer(
  op: Op,
  wallId: number,
  postId: number,
  body: RightsAnswerBody,
): Promise<RightsRecord> {
  const { post } = await postOfWall(op.db, wallId, postId);
  const before = post.rights_state;
  const result = await recordAnswer({ db: op.db, now: () => op.now }, postId, {
    state: body.state,
    actor: op.actor.name,
    note: body.note ? body.note : null,
    url: body.url ? body.url : null,
  });
  if (!result.ok) throw conflict(result.reason);
  await audited(op, async (tx) => {
    tx.audit({
      action: 'rights.answer',
      targetType: 'post',
      targetId: postId,
      before: { rights: before },
      after: { rights: result.state },
      details: { ...(body.note ? { note: body.note } : {}) },
    });
    tx.wallChanged(wallId);
  });
  return getPostRights(op.db, wallId, postId);
}

// ---------- the opt-out list ----------

const optOutRecord = (r: OptOutRow): OptOutRecord => ({
  author: r.author,
  reason: r.reason,
  postId: r.post_id,
  note: r.note,
  createdAt: iso(r.created_at),
});

export async function listAccountOptOuts(db: Kysely<Database>, accountId: number): Promise<OptOutRecord[]> {
  await requireAccount(db, accountId);
  return (await listOptOuts(db, accountId)).map(optOutRecord);
}

export async function addAccountOptOut(op: Op, accountId: number, body: OptOutBody): Promise<OptOutRecord> {
  return audited(op, async (tx) => {
    await requireAccount(tx.trx, accountId);
    const author = authorKey(body.network, body.username);
    if (await findOptOut(tx.trx, accountId, author)) throw conflict(`${author} is on the opt-out list already`);
    await addOptOut(tx.trx, {
      accountId,
      author,
      reason: 'operator',
      postId: null,
      note: body.note || null,
      now: op.now,
    });
    const rec = optOutRecord(found(await findOptOut(tx.trx, accountId, author), 'opt-out', 0));
    tx.audit({ action: 'rights.optout.add', targetType: 'account', targetId: accountId, accountId, after: rec });
    return rec;
  });
}

export async function removeAccountOptOut(op: Op, accountId: number, author: string): Promise<OptOutRecord> {
  return audited(op, async (tx) => {
    await requireAccount(tx.trx, accountId);
    const key = author.toLowerCase();
    const row = await findOptOut(tx.trx, accountId, key);
    if (!row) throw notFound('opt-out', key);
    await removeOptOut(tx.trx, accountId, key);
    const rec = optOutRecord(row);
    tx.audit({ action: 'rights.optout.remove', targetType: 'account', targetId: accountId, accountId, before: rec });
    return rec;
  });
}

// ---------- the evidence report ----------

export async function rightsReport(
  db: Kysely<Database>,
  accountId: number,
  filter: { wallId?: number; state?: RightsState },
  now: number,
): Promise<RightsReport> {
  await requireAccount(db, accountId);
  const rows = await rightsForReport(db, {
    accountId,
    ...(filter.wallId !== undefined ? { wallId: filter.wallId } : {}),
    ...(filter.state ? { states: [filter.state] } : {}),
  });
  return {
    accountId,
    generatedAt: iso(now),
    rows: rows.map((r): RightsReportRow => ({
      postId: r.post_id,
      wallId: r.wall_id,
      network: r.network,
      author: r.author,
      authorName: r.author_name,
      postUrl: r.post_url,
      state: r.state,
      method: r.method,
      requestedAt: iso(r.requested_at),
      requestedBy: r.requested_by,
      requestUrl: r.request_url ?? '',
      requestText: r.request_text,
      answeredAt: isoOrNull(r.answered_at),
      answerUrl: r.answer_url ?? '',
      answerText: r.answer_text ?? '',
      decidedBy: r.decided_by ?? '',
      note: r.note ?? '',
    })),
  };
}

export const REPORT_COLUMNS = [
  'postId',
  'wallId',
  'network',
  'author',
  'authorName',
  'postUrl',
  'state',
  'method',
  'requestedAt',
  'requestedBy',
  'requestUrl',
  'requestText',
  'answeredAt',
  'answerUrl',
  'answerText',
  'decidedBy',
  'note',
] as const satisfies readonly (keyof RightsReportRow)[];

/**
 * The report as CSV for the legal team: a header row, one row per post.
 * A cell a spreadsheet would run as a formula (=, +, -, @ first) is quoted
 * with a leading apostrophe (the authors' texts are not the brand's).
 */
export function rightsReportCsv(report: RightsReport): string {
  const safe = (v: unknown) => {
    const s = v === null || v === undefined ? '' : String(v);
    return /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  };
  return stringify(
    report.rows.map((r) => REPORT_COLUMNS.map((c) => safe(r[c]))),
    { header: true, columns: [...REPORT_COLUMNS] },
  );
}

export const reportFileName = (report: RightsReport, extension: 'csv' | 'pdf') =>
  `account-${report.accountId}-rights-evidence-${report.generatedAt.slice(0, 10)}.${extension}`;

/**
 * The report as a PDF for the legal team (src/rights/report-pdf.ts), titled
 * with the account's name, the brand its requests name and the filter;
 * `fontPath` draws the authors' words (RIGHTS_REPORT_FONT).
 */
export async function rightsReportPdfOf(
  db: Kysely<Database>,
  report: RightsReport,
  filter: { wallId?: number; state?: RightsState },
  fontPath: string | null,
): Promise<Buffer> {
  const [account, settings, wall] = await Promise.all([
    findAccount(db, report.accountId),
    findRightsSettings(db, report.accountId),
    filter.wallId !== undefined ? findWall(db, filter.wallId) : undefined,
  ]);
  const heading: ReportHeading = {
    accountName: account?.name ?? `account ${report.accountId}`,
    // the default brand ("us") is the template's word, not a brand
    brand: settings.brand && settings.brand !== DEFAULT_RIGHTS_SETTINGS.brand ? settings.brand : null,
    // another account's wall is not named (the report of this one has none of its posts)
    wall:
      filter.wallId !== undefined
        ? { id: filter.wallId, name: wall?.account_id === report.accountId ? wall.name : '' }
        : null,
    state: filter.state ?? null,
  };
  return rightsReportPdf(report, heading, { fontPath });
}
