// The post-field registry (src/domain/post-fields.ts) against the stored
// fingerprints: every upstream column has a fingerprint decision, and the
// fingerprints of posts stored before a registry change stay what they were
// (else the next poll rewrites every stored post: a revision, a change-log
// row and a webhook each).
import { describe, expect, it } from 'vitest';
import { ALWAYS_FINGERPRINTED, LATER_COLUMNS, POST_FIELDS, UPSTREAM_COLUMNS } from '../../src/domain/post-fields.js';
import { toPostFields } from '../../src/ingest/normalize.js';
import { upstreamHash } from '../../src/ingest/upstream-hash.js';
import type { UpstreamPost } from '../../src/ingest/connector.js';
import type { IngestedPost } from '../../src/store/ingest.js';
import { MIGRATION_DESCRIPTIONS } from '../../src/store/migrations.js';

const base = {
  external_id: '110000000000000001',
  network_name: 'mastodon',
  post_type: 0,
  content: '<p>Hello <b>world</b> #wall</p>',
  picture: '',
  file: '',
  file_original: '',
  file_thumb: '',
  media_file: '',
  link_url: 'https://social.example/@ann/110000000000000001',
  author_name: 'Ann Example',
  username: 'ann',
  user_picture: 'https://social.example/avatars/ann.png',
  score: null,
  rating: null,
  tags: 'wall',
  location: '',
  media: 'text',
  children: '[]',
  alt: '',
  repost: 0,
  reply: 0,
  sensitive: 0,
  author_bot: 0,
  author_created_at: null,
  created_at: 1_700_000_000_000,
  updated_at: 1_700_000_000_000,
  hidden: 0,
} satisfies IngestedPost;

const image = {
  ...base,
  post_type: 1,
  picture: 'https://cdn.example/1.jpg',
  file: 'https://cdn.example/1.jpg',
  file_original: 'https://cdn.example/1-full.jpg',
  file_thumb: 'https://cdn.example/1-thumb.jpg',
  media: 'image',
  children: JSON.stringify([
    { image: 'https://cdn.example/1.jpg', video: '', alt: 'a heron' },
    { image: 'https://cdn.example/2.jpg', video: '' },
  ]),
  score: 12,
  rating: 4.5,
  location: 'Lisbon',
} satisfies IngestedPost;

/** Sample posts as ingestion hands them over, and the fingerprint each had before the registry (pinned). */
const SAMPLES: [name: string, post: IngestedPost, fingerprint: string][] = [
  ['plain text', base, 'NzCmp5zYpUUCK5lE4lrxFwgzZU368sced5-_CGKnAsc'],
  ['image with children, score and rating', image, '_gHjGN7B7AvNAUD_97MoircpP9yXyJ9yoAkkzUwfaxU'],
  ['image with alt text', { ...image, alt: 'a heron at dawn' }, 'iNDrCpy8IyPyDb4GBidddPdTxpn2N6GSRq96ors0O-Y'],
  ['repost', { ...base, repost: 1 }, 'Hn40p3J1AoF4Udhu7ZkO4HK4EXpgpvPR61hdYLr88S4'],
  ['reply with alt text', { ...image, alt: 'a crane', reply: 1 }, '_1vhSNmOUdogRVq-B6dP39rHPROlmdKz7B9oCLBvGfY'],
  ['repost and reply', { ...base, repost: 1, reply: 1 }, 'UwUtIfMDbdtC6NzMQcqx4dgij5n2wdtE5xYeyv7zKbY'],
  [
    'edited later (the edit time does not count)',
    { ...base, updated_at: 1_800_000_000_000 },
    'NzCmp5zYpUUCK5lE4lrxFwgzZU368sced5-_CGKnAsc',
  ],
];

describe('post fingerprints', () => {
  it.each(SAMPLES)('%s keeps the fingerprint it had before the registry', (_name, post, fingerprint) => {
    expect(upstreamHash(post)).toBe(fingerprint);
  });
});

/**
 * The columns every stored fingerprint counts, always, in this order. Never
 * change this list: a column added here (or `upstream: 'always'` on a new
 * field) changes the fingerprint of every stored post. A new upstream column
 * is `upstream: { since: '<its migration>', as: 'value' | 'flag' }`.
 */
const ALWAYS = [
  'network_name',
  'post_type',
  'content',
  'picture',
  'file',
  'file_original',
  'file_thumb',
  'media_file',
  'link_url',
  'author_name',
  'username',
  'user_picture',
  'score',
  'rating',
  'tags',
  'location',
  'media',
  'children',
];

describe('the post-field registry', () => {
  it('counts the same columns always as every stored fingerprint did: a new upstream column comes `since` its migration', () => {
    expect(ALWAYS_FINGERPRINTED).toEqual(ALWAYS);
  });

  it('gives every upstream column a fingerprint decision: always, or since a migration that exists', () => {
    const later = LATER_COLUMNS.map((c) => c.column);
    expect([...ALWAYS_FINGERPRINTED, ...later].sort()).toEqual([...UPSTREAM_COLUMNS].sort());
    for (const field of POST_FIELDS)
      if ('upstream' in field && typeof field.upstream === 'object')
        expect(Object.keys(MIGRATION_DESCRIPTIONS), `${field.column}: since`).toContain(field.upstream.since);
  });

  it('lists as upstream exactly the columns ingestion writes (a column it writes has a fingerprint decision)', () => {
    const post: UpstreamPost = {
      externalId: '1',
      content: '<p>hi</p>',
      authorName: 'Ann',
      username: 'ann',
      userPicture: '',
      linkUrl: 'https://social.example/1',
      createdAt: 1_700_000_000_000,
      updatedAt: null,
      media: [],
      tags: [],
      sensitive: false,
    };
    const written = Object.keys(toPostFields(post, 'mastodon', 1_700_000_000_000)).filter(
      (c) => c !== 'created_at' && c !== 'updated_at',
    );
    expect(written.sort()).toEqual([...UPSTREAM_COLUMNS].sort());
  });

  it('counts a later flag only when set: a flagged post differs, an unflagged one keeps its fingerprint', () => {
    const flagged = upstreamHash({ ...base, sensitive: 1 });
    expect(flagged).not.toBe(upstreamHash(base));
    expect(upstreamHash({ ...base, sensitive: 0 })).toBe(SAMPLES[0]![2]);
  });
});
