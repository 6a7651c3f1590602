// A wall's live screen, controlled from the console (a phone at the side of
// the stage will do): pause and resume, the QR code, the layout and theme of
// every screen of the wall, a recent post in the spotlight for some seconds
// or off the screen, a slide shown now; editors keep the slides and the
// schedule. It listens to the wall's live stream (with a publishable key of
// the wall this tab knows), so a change made by another host shows here at
// once; without one it reads the state every few seconds. Every screen of the
// wall obeys within 2 s.
import { useState } from 'react';
import { apiErrorOf } from '../api/client';
import {
  useControlScreen,
  useCreateSlide,
  useDeleteSlide,
  useRecentApproved,
  useSaveSchedule,
  useScreen,
  useScreenStream,
  useSlides,
  type ScheduleEntries,
  type ScreenChange,
  type ScreenState,
} from '../api/queries/screen';
import { useMe } from '../auth';
import { CheckboxField, Options, SelectField, TextAreaField, TextField } from '../ui/fields';
import { onSubmit } from '../ui/form';
import { Button, ErrorNote, NoneYet, QueryStatus } from '../ui/kit';
import { useWallKey } from '../ui/OpenWall';
import { authorOf, PostByline } from '../ui/PostByline';
import { PostTextBlocks } from '../ui/PostText';
import { WallHead } from '../ui/WallNav';
import './Control.css';

const LAYOUTS = [
  ['', 'Each screen’s own'],
  ['event', 'Event'],
  ['masonry', 'Masonry'],
  ['grid', 'Grid'],
  ['carousel', 'Carousel'],
] as const;
const THEMES = [
  ['', 'Each screen’s own'],
  ['dark', 'Dark'],
  ['light', 'Light'],
  ['auto', 'Automatic'],
] as const;

const clock = (iso: string) =>
  new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** What every screen of the wall shows now, in one line. */
function nowShowing(state: ScreenState, slideTitle: (id: number) => string): string {
  const now = Date.now();
  if (state.slide && Date.parse(state.slide.until) > now)
    return `Slide “${slideTitle(state.slide.slideId)}” until ${clock(state.slide.until)}`;
  if (state.spotlight && Date.parse(state.spotlight.until) > now)
    return `Post ${state.spotlight.postId} in the spotlight until ${clock(state.spotlight.until)}`;
  return state.paused ? 'Paused: no new posts, no page turns' : 'The wall, live';
}

export function Control({ wallId }: { wallId: number }) {
  const me = useMe();
  const mayControl = me.can('PATCH /walls/{wallId}/screen');
  const mayEdit = me.can('POST /walls/{wallId}/screen/slides');
  const wallKey = useWallKey(wallId);
  const listening = useScreenStream(wallId, wallKey.key);
  const screen = useScreen(wallId, listening);
  const slides = useSlides(wallId);
  const recent = useRecentApproved(wallId, listening);
  const [said, setSaid] = useState('');
  const [seconds, setSeconds] = useState('15');
  const control = useControlScreen(wallId, { onSuccess: () => undefined });
  const send = (change: ScreenChange, done: string) => control.mutate(change, { onSuccess: () => setSaid(done) });
  const state = screen.data;
  const slideTitle = (id: number) => slides.data?.data.find((s) => s.id === id)?.title ?? `#${id}`;
  const secondsValue = Math.min(3600, Math.max(3, Math.trunc(Number(seconds)) || 15));

  return (
    <section className="control">
      <WallHead wallId={wallId} screen="control" said={said} />
      <QueryStatus query={screen} what="the screen’s state" />
      {state && (
        <>
          <div className="panel control-now" role="status" data-listening={listening}>
            <strong>Now showing:</strong> {nowShowing(state, slideTitle)}
          </div>
          {!wallKey.key && wallKey.query.isSuccess && (
            <p className="hint">
              Changes made elsewhere show here within a few seconds. Open the wall from this tab (“Open the wall”) and
              they show at once.
            </p>
          )}
          <ErrorNote error={control.error} title="The screen did not change" />
          {mayControl && (
            <div className="control-buttons">
              <Button
                variant="primary"
                aria-pressed={state.paused}
                disabled={control.isPending}
                onClick={() => send({ paused: !state.paused }, state.paused ? 'Resumed' : 'Paused')}
              >
                {state.paused ? 'Resume' : 'Pause'}
              </Button>
              <Button
                aria-pressed={state.qr}
                disabled={control.isPending}
                onClick={() => send({ qr: !state.qr }, state.qr ? 'QR code hidden' : 'QR code shown')}
              >
                {state.qr ? 'Hide QR code' : 'Show QR code'}
              </Button>
              {state.spotlight && (
                <Button onClick={() => send({ spotlight: null }, 'Spotlight ended')}>End spotlight</Button>
              )}
              {state.slide && <Button onClick={() => send({ showSlide: null }, 'Slide ended')}>End slide</Button>}
            </div>
          )}
          {mayControl && (
            <div className="control-look">
              <SelectField
                label="Layout"
                value={state.layout ?? ''}
                onChange={(e) => send({ layout: (e.target.value || null) as ScreenChange['layout'] }, 'Layout changed')}
              >
                <Options of={LAYOUTS} />
              </SelectField>
              <SelectField
                label="Theme"
                value={state.theme ?? ''}
                onChange={(e) => send({ theme: (e.target.value || null) as ScreenChange['theme'] }, 'Theme changed')}
              >
                <Options of={THEMES} />
              </SelectField>
              <TextField
                label="Spotlight and slide seconds"
                type="number"
                min={3}
                max={3600}
                inputMode="numeric"
                value={seconds}
                onChange={(e) => setSeconds(e.target.value)}
              />
            </div>
          )}
          <h2>Recent posts</h2>
          <QueryStatus query={recent} what="the recent posts" />
          {recent.data && recent.data.data.length === 0 && (
            <NoneYet howToAdd="Approved posts appear here.">No approved posts yet.</NoneYet>
          )}
          <ul className="control-posts">
            {recent.data?.data.map((post) => {
              const hidden = state.hiddenPostIds.includes(post.id);
              return (
                <li key={post.id} className={`panel${hidden ? ' control-hidden' : ''}`}>
                  <PostByline post={post} />
                  <PostTextBlocks html={post.content} max={160} />
                  {mayControl && (
                    <div className="control-post-actions">
                      <Button
                        disabled={hidden}
                        aria-label={`Spotlight the post by ${authorOf(post)}`}
                        onClick={() =>
                          send(
                            { spotlight: { postId: post.id, seconds: secondsValue } },
                            `Post by ${authorOf(post)} in the spotlight for ${secondsValue} s`,
                          )
                        }
                      >
                        Spotlight
                      </Button>
                      <Button
                        aria-pressed={hidden}
                        aria-label={`${hidden ? 'Show' : 'Hide'} the post by ${authorOf(post)} ${hidden ? 'on' : 'from'} the screen`}
                        onClick={() =>
                          send(
                            hidden ? { unhide: [post.id] } : { hide: [post.id] },
                            hidden ? 'Post shown on the screen again' : 'Post hidden from the screen',
                          )
                        }
                      >
                        {hidden ? 'Show on screen' : 'Hide from screen'}
                      </Button>
                    </div>
                  )}
                </li>
              );
            })}
          </ul>
          <Slides
            wallId={wallId}
            mayControl={mayControl}
            mayEdit={mayEdit}
            onShow={(slideId, title) =>
              send({ showSlide: { slideId, seconds: secondsValue } }, `Slide “${title}” shown for ${secondsValue} s`)
            }
            said={setSaid}
          />
          <Schedule wallId={wallId} state={state} mayEdit={mayEdit} said={setSaid} />
        </>
      )}
    </section>
  );
}

function Slides({
  wallId,
  mayControl,
  mayEdit,
  onShow,
  said,
}: {
  wallId: number;
  mayControl: boolean;
  mayEdit: boolean;
  onShow(slideId: number, title: string): void;
  said(message: string): void;
}) {
  const slides = useSlides(wallId);
  const remove = useDeleteSlide(wallId);
  const [draft, setDraft] = useState({ title: '', text: '', imageUrl: '', sponsor: false, everyPosts: '' });
  const create = useCreateSlide(wallId, {
    onSuccess: () => {
      said(`Slide “${draft.title}” added`);
      setDraft({ title: '', text: '', imageUrl: '', sponsor: false, everyPosts: '' });
    },
  });
  const error = apiErrorOf(create.error);
  return (
    <>
      <h2>Slides</h2>
      <QueryStatus query={slides} what="the slides" />
      {slides.data && slides.data.data.length === 0 && (
        <NoneYet howToAdd={mayEdit ? 'Add one below.' : 'An editor adds them.'}>No slides yet.</NoneYet>
      )}
      <ul className="control-slides">
        {slides.data?.data.map((slide) => (
          <li key={slide.id} className="panel">
            <p>
              <strong>{slide.title}</strong>
              {slide.sponsor && <span className="muted"> · sponsor</span>}
              {slide.everyPosts !== null && <span className="muted"> · every {slide.everyPosts} posts</span>}
            </p>
            {slide.text && <p className="muted">{slide.text}</p>}
            <div className="control-post-actions">
              {mayControl && <Button onClick={() => onShow(slide.id, slide.title)}>Show now</Button>}
              {mayEdit && (
                <Button
                  variant="danger"
                  onClick={() => remove.mutate(slide.id, { onSuccess: () => said('Slide deleted') })}
                >
                  Delete<span className="sr-only"> the slide “{slide.title}”</span>
                </Button>
              )}
            </div>
          </li>
        ))}
      </ul>
      {mayEdit && (
        <form
          className="panel control-form"
          onSubmit={onSubmit(() =>
            create.mutate({
              title: draft.title,
              text: draft.text,
              imageUrl: draft.imageUrl.trim() || null,
              sponsor: draft.sponsor,
              everyPosts: draft.everyPosts ? Number(draft.everyPosts) : null,
            }),
          )}
        >
          <h3>Add a slide</h3>
          <TextField
            label="Title"
            required
            value={draft.title}
            error={error?.forField('title')}
            onChange={(e) => setDraft({ ...draft, title: e.target.value })}
          />
          <TextAreaField
            label="Text"
            value={draft.text}
            error={error?.forField('text')}
            onChange={(e) => setDraft({ ...draft, text: e.target.value })}
          />
          <TextField
            label="Picture URL (https)"
            type="url"
            value={draft.imageUrl}
            error={error?.forField('imageUrl')}
            onChange={(e) => setDraft({ ...draft, imageUrl: e.target.value })}
          />
          <TextField
            label="In the rotation every … posts (empty: on demand only)"
            type="number"
            min={1}
            inputMode="numeric"
            value={draft.everyPosts}
            error={error?.forField('everyPosts')}
            onChange={(e) => setDraft({ ...draft, everyPosts: e.target.value })}
          />
          <CheckboxField
            label="Sponsor slide"
            checked={draft.sponsor}
            onChange={(e) => setDraft({ ...draft, sponsor: e.target.checked })}
          />
          <ErrorNote error={error && error.fieldErrors.length === 0 ? error : null} title="The slide was not added" />
          <Button type="submit" variant="primary" disabled={create.isPending}>
            Add slide
          </Button>
        </form>
      )}
    </>
  );
}

const ACTIONS = [
  ['on', 'Screen on'],
  ['off', 'Screen off (closing screen)'],
  ['message', 'Message'],
] as const;

/** A datetime-local value (the browser's own time) as an ISO time with its offset. */
const isoOf = (local: string) => new Date(local).toISOString();

function Schedule({
  wallId,
  state,
  mayEdit,
  said,
}: {
  wallId: number;
  state: ScreenState;
  mayEdit: boolean;
  said(message: string): void;
}) {
  const [at, setAt] = useState('');
  const [action, setAction] = useState<'on' | 'off' | 'message'>('off');
  const [message, setMessage] = useState('');
  const save = useSaveSchedule(wallId, { onSuccess: () => said('Schedule saved') });
  const entries: ScheduleEntries = state.schedule.map((e) => ({ at: e.at, action: e.action, message: e.message }));
  return (
    <>
      <h2>Schedule</h2>
      {entries.length === 0 && <p className="muted">No times set: the screen is on.</p>}
      <ol className="control-schedule">
        {state.schedule.map((e, i) => (
          <li key={e.at}>
            {new Date(e.at).toLocaleString()} — {ACTIONS.find(([a]) => a === e.action)?.[1]}
            {e.message && ` “${e.message}”`}
            {mayEdit && (
              <Button variant="link" onClick={() => save.mutate(entries.filter((_, k) => k !== i))}>
                Remove<span className="sr-only"> this time</span>
              </Button>
            )}
          </li>
        ))}
      </ol>
      <ErrorNote error={save.error} title="The schedule was not saved" />
      {mayEdit && (
        <form
          className="panel control-form"
          onSubmit={onSubmit(() =>
            save.mutate([...entries, { at: isoOf(at), action, message: message.trim() || null }], {
              onSuccess: () => setMessage(''),
            }),
          )}
        >
          <h3>Add a time</h3>
          <TextField label="From" type="datetime-local" required value={at} onChange={(e) => setAt(e.target.value)} />
          <SelectField label="The screen" value={action} onChange={(e) => setAction(e.target.value as typeof action)}>
            <Options of={ACTIONS} />
          </SelectField>
          <TextField
            label="Message (e.g. “Back at 14:00”)"
            value={message}
            onChange={(e) => setMessage(e.target.value)}
          />
          <Button type="submit" variant="primary" disabled={save.isPending}>
            Add time
          </Button>
        </form>
      )}
    </>
  );
}
