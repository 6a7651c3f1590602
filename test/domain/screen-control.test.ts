// The rules of a wall's live screen control: how a command changes the
// state, what the schedule says at a time, what a screen shows at t, and
// which slide of the rotation is due.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyCommand,
  commandProblems,
  dueSlide,
  HIDDEN_MAX,
  INITIAL_SCREEN_STATE,
  normalizeSchedule,
  scheduledMode,
  scheduleProblems,
  screenAt,
  SHOW_SECONDS,
  type ScheduleEntry,
  type ScreenCommand,
  type ScreenSlide,
} from '../../src/domain/screen-control.js';

const T = Date.UTC(2026, 6, 4, 18, 0, 0);
const slide = (id: number, extra: Partial<ScreenSlide> = {}): ScreenSlide => ({
  id,
  title: `slide ${id}`,
  text: '',
  imageUrl: null,
  sponsor: false,
  everyPosts: null,
  startsAt: null,
  endsAt: null,
  ...extra,
});

const commands: fc.Arbitrary<ScreenCommand> = fc.record(
  {
    paused: fc.boolean(),
    spotlight: fc.option(
      fc.record({ postId: fc.integer({ min: 1, max: 20 }), seconds: fc.integer({ min: 3, max: 60 }) }),
    ),
    hide: fc.array(fc.integer({ min: 1, max: 20 }), { maxLength: 5 }),
    unhide: fc.array(fc.integer({ min: 1, max: 20 }), { maxLength: 5 }),
    qr: fc.boolean(),
  },
  { requiredKeys: [] },
);

describe('screen control', () => {
  it('a command changes only what it names and moves the version on', () => {
    const paused = applyCommand(INITIAL_SCREEN_STATE, { paused: true }, T);
    expect(paused).toEqual({ ...INITIAL_SCREEN_STATE, paused: true, version: 1 });
    const spot = applyCommand(paused, { spotlight: { postId: 7, seconds: 20 } }, T);
    expect(spot.spotlight).toEqual({ postId: 7, until: T + 20_000 });
    expect(spot.paused).toBe(true);
    // the default length, and lengths held within their bounds
    expect(applyCommand(paused, { spotlight: { postId: 7 } }, T).spotlight!.until).toBe(
      T + SHOW_SECONDS.default * 1000,
    );
    expect(applyCommand(paused, { showSlide: { slideId: 2, seconds: 1 } }, T).slide!.until).toBe(
      T + SHOW_SECONDS.min * 1000,
    );
    expect(applyCommand(spot, { spotlight: null }, T).spotlight).toBeNull();
  });

  it('hiding the post in the spotlight ends it; spotlighting a hidden post shows it again', () => {
    const spot = applyCommand(INITIAL_SCREEN_STATE, { spotlight: { postId: 7 } }, T);
    const hidden = applyCommand(spot, { hide: [7, 8] }, T);
    expect(hidden.spotlight).toBeNull();
    expect(hidden.hiddenPostIds).toEqual([7, 8]);
    const back = applyCommand(hidden, { spotlight: { postId: 8 } }, T);
    expect(back.hiddenPostIds).toEqual([7]);
    expect(back.spotlight?.postId).toBe(8);
    expect(commandProblems({ hide: [3], unhide: [3] })).toEqual([
      { field: 'unhide', message: 'post 3 cannot be hidden and shown again in one change' },
    ]);
    expect(commandProblems({ hide: [3], spotlight: { postId: 3 } })).toHaveLength(1);
  });

  it('after any commands: the version counts them, no post is hidden twice, the spotlight is never on a hidden post', () => {
    fc.assert(
      fc.property(fc.array(commands, { maxLength: 30 }), (list) => {
        let state = INITIAL_SCREEN_STATE;
        for (const c of list) if (commandProblems(c).length === 0) state = applyCommand(state, c, T);
        const applied = list.filter((c) => commandProblems(c).length === 0).length;
        expect(state.version).toBe(applied);
        expect(new Set(state.hiddenPostIds).size).toBe(state.hiddenPostIds.length);
        expect(state.hiddenPostIds.length).toBeLessThanOrEqual(HIDDEN_MAX);
        if (state.spotlight) expect(state.hiddenPostIds).not.toContain(state.spotlight.postId);
      }),
    );
  });

  it('keeps the newest hidden posts when the list is full', () => {
    const many = Array.from({ length: HIDDEN_MAX + 10 }, (_, i) => i + 1);
    expect(applyCommand(INITIAL_SCREEN_STATE, { hide: many }, T).hiddenPostIds).toEqual(many.slice(10));
  });

  it('the schedule: its last entry at or before t decides, on before the first', () => {
    const schedule = normalizeSchedule([
      { at: T + 3_600_000, action: 'off', message: ' See you next year ' },
      { at: T, action: 'on', message: null },
      { at: T + 1_800_000, action: 'message', message: 'Break: back at 19:00' },
    ]);
    expect(schedule.map((e) => e.action)).toEqual(['on', 'message', 'off']);
    expect(scheduledMode(schedule, T - 1)).toEqual({ kind: 'on' });
    expect(scheduledMode(schedule, T + 1_800_000)).toEqual({ kind: 'message', message: 'Break: back at 19:00' });
    expect(scheduledMode(schedule, T + 7_200_000)).toEqual({ kind: 'off', message: 'See you next year' });
    expect(scheduledMode([], T)).toEqual({ kind: 'on' });
    const bad: ScheduleEntry[] = [
      { at: T, action: 'on', message: null },
      { at: T, action: 'message', message: ' ' },
    ];
    expect(scheduleProblems(bad).map((p) => p.field)).toEqual(['schedule[1].at', 'schedule[1].message']);
  });

  it('what a screen shows at t: a spotlight and a slide until their time is up, live slides in the rotation', () => {
    let state = applyCommand(INITIAL_SCREEN_STATE, { spotlight: { postId: 7, seconds: 10 } }, T);
    state = applyCommand(state, { showSlide: { slideId: 2, seconds: 5 } }, T);
    const slides = [slide(1, { everyPosts: 10 }), slide(2), slide(3, { everyPosts: 5, endsAt: T + 1000 })];
    expect(screenAt(state, slides, T + 1)).toMatchObject({ spotlightPostId: 7, slideId: 2 });
    expect(screenAt(state, slides, T + 5_000)).toMatchObject({ spotlightPostId: 7, slideId: null });
    expect(screenAt(state, slides, T + 10_000)).toMatchObject({ spotlightPostId: null });
    expect(screenAt(state, slides, T).rotation.map((s) => s.id)).toEqual([1, 3]);
    expect(screenAt(state, slides, T + 1000).rotation.map((s) => s.id)).toEqual([1]);
    // a slide shown on demand that was deleted shows nothing
    expect(screenAt(state, [slide(1)], T + 1).slideId).toBeNull();
  });

  it('the rotation: the first slide from where it stopped whose count of posts is reached', () => {
    const rotation = [slide(1, { everyPosts: 10 }), slide(2, { everyPosts: 4 })];
    expect(dueSlide(rotation, 3, 0)).toBeNull();
    expect(dueSlide(rotation, 4, 0)).toMatchObject({ index: 1 });
    expect(dueSlide(rotation, 12, 0)).toMatchObject({ index: 0 });
    expect(dueSlide(rotation, 12, 1)).toMatchObject({ index: 1 });
    expect(dueSlide([], 100, 0)).toBeNull();
  });
});
