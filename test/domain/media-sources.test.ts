// Unit tests of src/domain/media-sources.ts: which pictures of a post are
// copied (and under which slot), and a post's media state from theirs.
import { describe, expect, it } from 'vitest';
import { pictureSourcesOf, postMediaState, type MediaColumns } from '../../src/domain/media-sources.js';

const columns = (over: Partial<MediaColumns> = {}): MediaColumns => ({
  media: 'text',
  picture: '',
  file: '',
  file_thumb: '',
  media_file: '',
  children: '[]',
  alt: '',
  user_picture: '',
  ...over,
});

describe('pictureSourcesOf', () => {
  it('a text post without an avatar has none', () => {
    expect(pictureSourcesOf(columns())).toEqual([]);
  });

  it("an image post: its picture and the author's avatar", () => {
    expect(
      pictureSourcesOf(
        columns({ media: 'image', picture: 'https://e.com/a.jpg', user_picture: 'https://e.com/me.png' }),
      ),
    ).toEqual([
      { slot: 'item:0', url: 'https://e.com/a.jpg' },
      { slot: 'avatar', url: 'https://e.com/me.png' },
    ]);
  });

  it("a carousel's children in order; a video child's poster; a video without one has no picture", () => {
    const children = JSON.stringify([
      { image: 'https://e.com/1.jpg', video: '' },
      { image: '', video: 'https://e.com/2.mp4' },
      { image: 'https://e.com/3.jpg', video: 'https://e.com/3.mp4' },
    ]);
    expect(pictureSourcesOf(columns({ media: 'image', children }))).toEqual([
      { slot: 'item:0', url: 'https://e.com/1.jpg' },
      { slot: 'item:2', url: 'https://e.com/3.jpg' },
    ]);
  });

  it('URLs that are not http(s) are not fetched', () => {
    expect(
      pictureSourcesOf(columns({ media: 'image', picture: 'javascript:alert(1)', user_picture: 'file:///etc/passwd' })),
    ).toEqual([]);
  });
});

describe('postMediaState', () => {
  it.each([
    [[], 'none'],
    [['pending'], 'pending'],
    [['ready', 'pending'], 'pending'],
    [['ready', 'ready'], 'ready'],
    [['ready', 'failed'], 'partial'],
    [['ready', 'refused'], 'partial'],
    [['failed', 'refused'], 'failed'],
    // skipped pictures are not Wallery's to copy: neither pending nor stored
    [['skipped'], 'none'],
    [['skipped', 'skipped'], 'none'],
    [['skipped', 'ready'], 'ready'],
    [['skipped', 'pending'], 'pending'],
    [['skipped', 'failed'], 'failed'],
  ] as const)('%j → %s', (states, state) => {
    expect(postMediaState(states)).toBe(state);
  });
});
