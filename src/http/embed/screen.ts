// A wall's live screen state as its screens get it (the stream's `screen`
// event, src/schemas/screen.ts): the state, the post in the spotlight
// rendered as the embed renders posts (null once it is no longer visible),
// the slide shown on demand, and the slides of the rotation. Times are the
// server's; `serverNow` is added when sent, so that the same state reads the
// same and is sent once.
import type { Kysely } from 'kysely';
import { iso, isoOrNull } from '../../domain/dates.js';
import { type ScreenSlide } from '../../domain/screen-control.js';
import { screenStateOf, slideOf } from '../../manage/screen.js';
import type { EmbedScreen, EmbedSlide } from '../../schemas/screen.js';
import { findVisiblePost } from '../../store/posts.js';
import type { Database } from '../../store/schema.js';
import { findScreenState, listScreenSlides } from '../../store/screen.js';
import { presentPosts } from './present.js';

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
  const state = screenStateOf(await findScreenState(db, wallId));
  const slides = (await listScreenSlides(db, wallId)).map(slideOf);
  const spotRow = state.spotlight ? await findVisiblePost(db, wallId, state.spotlight.postId) : null;
  const [spotPost] = spotRow ? await presentPosts(db, [spotRow], base) : [];
  const shown = state.slide ? slides.find((s) => s.id === state.slide!.slideId) : undefined;
  return {
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
}
