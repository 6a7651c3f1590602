// A wall's live screen state as its screens get it (the stream's `screen`
// event, src/schemas/screen.ts): the state, the post in the spotlight
// rendered as the embed renders posts (null once it is no longer visible),
// the slide shown on demand, and the slides of the rotation. Times are the
// server's; `serverNow` is added when sent, so that the same state reads the
// same and is sent once.
// The first page of the embed API's posts carries the same state (without
// `serverNow`) for screens that cannot hold the stream open and poll.
import type { Kysely } from 'kysely';
import { iso, isoOrNull } from '../../domain/dates.js';
import { type ScreenSlide } from '../../domain/screen-control.js';
import { screenStateOf, slideOf } from '../../manage/screen.js';
import type { EmbedPost } from '../../presenters/embed.js';
import type { EmbedPolledScreen, EmbedScreen, EmbedSlide } from '../../schemas/screen.js';
import { findVisiblePost } from '../../store/posts.js';
import type { Database } from '../../store/schema.js';
import { findScreenState, listScreenSlides, type ScreenStateRow } from '../../store/screen.js';
import type { WallRow } from '../../store/walls.js';
import { embedPostsPage, presentPosts } from './present.js';

export type ScreenBody = Omit<EmbedScreen, 'serverNow'>;

const embedSlide = (s: ScreenSlide): EmbedSlide => ({
  id: String(s.id),
  title: s.title,
  text: s.text,
  imageUrl: s.imageUrl,
  sponsor: s.sponsor,
  everyPosts: s.everyPosts,
  startsAt: isoOrNull(s.startsAt),
  endsAt: isoOrNull(s.endsAt),
});

/** The wall's screen state; `base`: of Wallery's own URLs in the spotlight's post. */
export async function presentScreen(db: Kysely<Database>, wallId: number, base: string): Promise<ScreenBody> {
  return (await readScreen(db, wallId, base)).body;
}

async function readScreen(
  db: Kysely<Database>,
  wallId: number,
  base: string,
): Promise<{ body: ScreenBody; row: ScreenStateRow | null; slideCount: number }> {
  const row = await findScreenState(db, wallId);
  const state = screenStateOf(row);
  const slides = (await listScreenSlides(db, wallId)).map(slideOf);
  const spotRow = state.spotlight ? await findVisiblePost(db, wallId, state.spotlight.postId) : null;
  const [spotPost] = spotRow ? await presentPosts(db, [spotRow], base) : [];
  const shown = state.slide ? slides.find((s) => s.id === state.slide!.slideId) : undefined;
  const body: ScreenBody = {
    version: state.version,
    paused: state.paused,
    spotlight: spotPost && state.spotlight ? { post: spotPost, until: iso(state.spotlight.until) } : null,
    slide: shown && state.slide ? { slide: embedSlide(shown), until: iso(state.slide.until) } : null,
    hiddenPostIds: state.hiddenPostIds.map(String),
    layout: state.layout,
    theme: state.theme,
    qr: state.qr,
    schedule: state.schedule.map((e) => ({ at: iso(e.at), action: e.action, message: e.message })),
    slides: slides.filter((s) => s.everyPosts !== null).map(embedSlide),
  };
  return { body, row, slideCount: slides.length };
}

/**
 * A page of the wall's posts as the embed API answers it (the posts route,
 * the hosted page's first load): the first page also carries the screen
 * state, for screens that poll — once the wall's screen has ever been
 * controlled or given slides (a wall that never was answers as before).
 */
export async function embedPostsAnswer(
  db: Kysely<Database>,
  wall: Pick<WallRow, 'id' | 'media_wait'>,
  options: Parameters<typeof embedPostsPage>[2],
): Promise<{ posts: EmbedPost[]; nextCursor: string | null; screen?: EmbedPolledScreen }> {
  const page = await embedPostsPage(db, wall, options);
  if (options.after !== null) return page;
  const { body, row, slideCount } = await readScreen(db, wall.id, options.base);
  return row || slideCount > 0 ? { ...page, screen: body } : page;
}
