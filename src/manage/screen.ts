// A wall's live screen control: read the state, change it (moderators:
// pause, spotlight, show a slide, hide posts from the screen, layout, theme,
// QR), and keep its slides and schedule (editors). Each write is audited and
// moves the state's version on in the same transaction; the wall is
// announced after the commit, so every instance's stream hub sends its
// screens the new state (src/http/embed/stream-hub.ts).
import type { Kysely } from 'kysely';
import { iso, isoOrNull } from '../domain/dates.js';
import { invalid, invalidField, found, conflict } from '../domain/errors.js';
import type { EmbedLayout, EmbedTheme } from '../domain/lists.js';
import { safeUrl } from '../domain/safe-url.js';
import {
  applyCommand,
  commandProblems,
  INITIAL_SCREEN_STATE,
  normalizeSchedule,
  scheduleProblems,
  SLIDES_MAX,
  type ScheduleEntry,
  type ScreenCommand,
  type ScreenSlide,
  type ScreenState,
} from '../domain/screen-control.js';
import type {
  ScheduleBody,
  ScreenPatchBody,
  ScreenStateRecord,
  SlideCreateBody,
  SlidePatchBody,
  SlideRecord,
} from '../schemas/screen.js';
import { findVisiblePost } from '../store/posts.js';
import type { Database } from '../store/schema.js';
import {
  bumpScreenVersion,
  countScreenSlides,
  deleteScreenSlide,
  findScreenSlide,
  findScreenState,
  insertScreenSlide,
  listScreenSlides,
  saveScreenState,
  updateScreenSlide,
  type ScreenSlideRow,
  type ScreenStateRow,
  type SlideFields,
} from '../store/screen.js';
import { audited, diff, type Op } from './op.js';
import { requireWall } from './walls.js';

/** The state of a row (none yet: the initial state). */
export function screenStateOf(row: ScreenStateRow | null): ScreenState {
  if (!row) return INITIAL_SCREEN_STATE;
  return {
    paused: row.paused === 1,
    spotlight:
      row.spotlight_post_id !== null && row.spotlight_until !== null
        ? { postId: row.spotlight_post_id, until: row.spotlight_until }
        : null,
    slide: row.slide_id !== null && row.slide_until !== null ? { slideId: row.slide_id, until: row.slide_until } : null,
    hiddenPostIds: JSON.parse(row.hidden_post_ids) as number[],
    layout: row.layout as EmbedLayout | null,
    theme: row.theme as EmbedTheme | null,
    qr: row.qr === 1,
    schedule: JSON.parse(row.schedule) as ScheduleEntry[],
    version: row.version,
  };
}

const fieldsOf = (s: ScreenState) => ({
  paused: s.paused ? 1 : 0,
  spotlight_post_id: s.spotlight?.postId ?? null,
  spotlight_until: s.spotlight?.until ?? null,
  slide_id: s.slide?.slideId ?? null,
  slide_until: s.slide?.until ?? null,
  hidden_post_ids: JSON.stringify(s.hiddenPostIds),
  layout: s.layout,
  theme: s.theme,
  qr: s.qr ? 1 : 0,
  schedule: JSON.stringify(s.schedule),
});

function stateRecord(wallId: number, s: ScreenState, updatedAt: number | null): ScreenStateRecord {
  return {
    wallId,
    paused: s.paused,
    spotlight: s.spotlight && { postId: s.spotlight.postId, until: iso(s.spotlight.until) },
    slide: s.slide && { slideId: s.slide.slideId, until: iso(s.slide.until) },
    hiddenPostIds: s.hiddenPostIds,
    layout: s.layout,
    theme: s.theme,
    qr: s.qr,
    schedule: s.schedule.map((e) => ({ at: iso(e.at), action: e.action, message: e.message })),
    version: s.version,
    updatedAt: isoOrNull(updatedAt),
  };
}

export function slideOf(row: ScreenSlideRow): ScreenSlide {
  return {
    id: row.id,
    title: row.title,
    text: row.body,
    imageUrl: row.image_url,
    sponsor: row.sponsor === 1,
    everyPosts: row.every_posts,
    startsAt: row.starts_at,
    endsAt: row.ends_at,
  };
}

function slideRecord(row: ScreenSlideRow): SlideRecord {
  return {
    id: row.id,
    wallId: row.wall_id,
    title: row.title,
    text: row.body,
    imageUrl: row.image_url,
    sponsor: row.sponsor === 1,
    everyPosts: row.every_posts,
    startsAt: isoOrNull(row.starts_at),
    endsAt: isoOrNull(row.ends_at),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

export async function getScreen(db: Kysely<Database>, wallId: number): Promise<ScreenStateRecord> {
  await requireWall(db, wallId);
  const row = await findScreenState(db, wallId);
  return stateRecord(wallId, screenStateOf(row), row?.updated_at ?? null);
}

/** Changes the screen: every refused field at once (400); the spotlight's post must be on the wall, visible. */
export async function controlScreen(op: Op, wallId: number, body: ScreenPatchBody): Promise<ScreenStateRecord> {
  const command: ScreenCommand = body;
  const problems = commandProblems(command);
  return audited(op, async (tx) => {
    await requireWall(tx.trx, wallId);
    if (command.spotlight && !(await findVisiblePost(tx.trx, wallId, command.spotlight.postId)))
      problems.push({
        field: 'spotlight.postId',
        message: `post ${command.spotlight.postId} is not an approved, visible post of wall ${wallId}`,
      });
    if (command.showSlide && !(await findScreenSlide(tx.trx, wallId, command.showSlide.slideId)))
      problems.push({
        field: 'showSlide.slideId',
        message: `slide ${command.showSlide.slideId} is not a slide of wall ${wallId}`,
      });
    if (problems.length > 0) throw invalid(problems);
    const before = screenStateOf(await findScreenState(tx.trx, wallId));
    const after = applyCommand(before, command, op.now);
    await saveScreenState(tx.trx, wallId, fieldsOf(after), after.version, op.now);
    const changed = diff(fieldsOf(before), fieldsOf(after));
    tx.audit({
      action: 'screen.control',
      targetType: 'wall',
      targetId: wallId,
      ...changed,
      details: { command: body },
    });
    tx.wallChanged(wallId);
    return stateRecord(wallId, after, op.now);
  });
}

const timeOf = (text: string | null | undefined, field: string): number | null => {
  if (text === null || text === undefined) return null;
  const ms = Date.parse(text);
  if (!Number.isFinite(ms)) throw invalidField(field, `${field} is not a real date and time`);
  return ms;
};

/** Replaces the schedule (in time order). */
export async function putSchedule(op: Op, wallId: number, body: ScheduleBody): Promise<ScreenStateRecord> {
  const entries: ScheduleEntry[] = body.schedule.map((e, i) => ({
    at: timeOf(e.at, `schedule[${i}].at`)!,
    action: e.action,
    message: e.message ?? null,
  }));
  const problems = scheduleProblems(entries);
  if (problems.length > 0) throw invalid(problems);
  return audited(op, async (tx) => {
    await requireWall(tx.trx, wallId);
    const before = screenStateOf(await findScreenState(tx.trx, wallId));
    const after: ScreenState = { ...before, schedule: normalizeSchedule(entries), version: before.version + 1 };
    await saveScreenState(tx.trx, wallId, fieldsOf(after), after.version, op.now);
    tx.audit({
      action: 'screen.schedule',
      targetType: 'wall',
      targetId: wallId,
      before: { schedule: before.schedule },
      after: { schedule: after.schedule },
    });
    tx.wallChanged(wallId);
    return stateRecord(wallId, after, op.now);
  });
}

export async function listSlides(db: Kysely<Database>, wallId: number): Promise<{ data: SlideRecord[] }> {
  await requireWall(db, wallId);
  return { data: (await listScreenSlides(db, wallId)).map(slideRecord) };
}

/** A slide's fields from a write, checked: the image only as an http(s) URL, the window in order. */
function slideFields(body: SlideCreateBody | SlidePatchBody, before: SlideFields | null): Partial<SlideFields> {
  const out: Partial<SlideFields> = {};
  if (body.title !== undefined) out.title = body.title.trim();
  if (body.text !== undefined) out.body = body.text.trim();
  if (body.imageUrl !== undefined) {
    const url = body.imageUrl === null ? null : safeUrl(body.imageUrl);
    if (body.imageUrl !== null && url === null) throw invalidField('imageUrl', 'imageUrl must be an http(s) URL');
    out.image_url = url;
  }
  if (body.sponsor !== undefined) out.sponsor = body.sponsor ? 1 : 0;
  if (body.everyPosts !== undefined) out.every_posts = body.everyPosts;
  if (body.startsAt !== undefined) out.starts_at = timeOf(body.startsAt, 'startsAt');
  if (body.endsAt !== undefined) out.ends_at = timeOf(body.endsAt, 'endsAt');
  const starts = out.starts_at !== undefined ? out.starts_at : (before?.starts_at ?? null);
  const ends = out.ends_at !== undefined ? out.ends_at : (before?.ends_at ?? null);
  if (starts !== null && ends !== null && ends <= starts) throw invalidField('endsAt', 'endsAt must be after startsAt');
  return out;
}

export async function createSlide(op: Op, wallId: number, body: SlideCreateBody): Promise<SlideRecord> {
  const given = slideFields(body, null);
  const fields: SlideFields = {
    title: given.title!,
    body: given.body ?? '',
    image_url: given.image_url ?? null,
    sponsor: given.sponsor ?? 0,
    every_posts: given.every_posts ?? null,
    starts_at: given.starts_at ?? null,
    ends_at: given.ends_at ?? null,
  };
  return audited(op, async (tx) => {
    await requireWall(tx.trx, wallId);
    if ((await countScreenSlides(tx.trx, wallId)) >= SLIDES_MAX)
      throw conflict(`a wall has at most ${SLIDES_MAX} slides: delete one first`);
    const id = await insertScreenSlide(tx.trx, wallId, fields, op.now);
    await bumpScreenVersion(tx.trx, wallId, op.now);
    const row = found(await findScreenSlide(tx.trx, wallId, id), 'slide', id);
    tx.audit({
      action: 'screen.slide.create',
      targetType: 'wall',
      targetId: wallId,
      after: slideRecord(row),
      details: { slideId: id },
    });
    tx.wallChanged(wallId);
    return slideRecord(row);
  });
}

export async function updateSlide(op: Op, wallId: number, slideId: number, body: SlidePatchBody): Promise<SlideRecord> {
  return audited(op, async (tx) => {
    await requireWall(tx.trx, wallId);
    const before = found(await findScreenSlide(tx.trx, wallId, slideId), 'slide', slideId);
    await updateScreenSlide(tx.trx, slideId, slideFields(body, before), op.now);
    await bumpScreenVersion(tx.trx, wallId, op.now);
    const after = found(await findScreenSlide(tx.trx, wallId, slideId), 'slide', slideId);
    const changed = diff(slideRecord(before), slideRecord(after));
    tx.audit({ action: 'screen.slide.update', targetType: 'wall', targetId: wallId, ...changed, details: { slideId } });
    tx.wallChanged(wallId);
    return slideRecord(after);
  });
}

export async function deleteSlide(op: Op, wallId: number, slideId: number): Promise<SlideRecord> {
  return audited(op, async (tx) => {
    await requireWall(tx.trx, wallId);
    const before = found(await findScreenSlide(tx.trx, wallId, slideId), 'slide', slideId);
    await deleteScreenSlide(tx.trx, slideId);
    await bumpScreenVersion(tx.trx, wallId, op.now);
    tx.audit({
      action: 'screen.slide.delete',
      targetType: 'wall',
      targetId: wallId,
      before: slideRecord(before),
      details: { slideId },
    });
    tx.wallChanged(wallId);
    return slideRecord(before);
  });
}
