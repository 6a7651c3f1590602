// Flickr connector against a local Flickr REST API (photos.search,
// photos.getSizes), on both stores: photos and videos, min_upload_date and
// page paging, deletions, the invalid-key answer and a 429.
import { afterEach, describe, expect, it } from 'vitest';
import { FLICKR_KEY, flickrPhoto, startFlickr, type FlickrFixture } from '../fixtures/flickr.js';
import { NOW, ingestState, startHarness, storedPosts, untilDue, wallPosts, type Harness } from '../harness.js';
import { connectFeed, connectionOf, expectSecretNowhere } from './connected-feed.js';

const FEED = 3801;
const t = (minutesBefore: number) => Math.floor(NOW / 1000) - minutesBefore * 60;
const ROSA = '12037949754@N01';
const TOM = '99887766@N02';

let fx: FlickrFixture;
let h: Harness;
let connectionId: number;
afterEach(async () => {
  await h?.close();
  await fx?.close();
});

async function flickrWall(connector: Record<string, unknown>) {
  fx = await startFlickr();
  h = await startHarness([{ id: FEED, name: 'Flickr', connector: { kind: 'flickr', connectionId: 1, tags: 'x' } }]);
  connectionId = await connectFeed(
    h,
    FEED,
    'flickr',
    { apiKey: FLICKR_KEY },
    {
      kind: 'flickr',
      apiBaseUrl: fx.origin,
      ...connector,
    },
  );
}

function seed() {
  fx.photos.push(
    flickrPhoto({
      id: '53500000004',
      uploaded: t(10),
      title: 'Fireworks',
      media: 'video',
      tags: 'harbourfest fireworks',
    }),
    flickrPhoto({
      id: '53500000003',
      uploaded: t(20),
      title: 'Harbour <at> dusk',
      description: 'Shot from the pier.\nMore on <a href="https://rosa.example">my site</a> <script>x()</script>',
      tags: 'harbourfest dusk',
    }),
    flickrPhoto({ id: '53500000002', uploaded: t(30), owner: TOM, title: 'Boats', tags: 'harbourfest' }),
    flickrPhoto({ id: '53500000001', uploaded: t(40), title: 'Other', tags: 'unrelated' }),
  );
}

describe('flickr photos.search', () => {
  it('maps photos and videos; reads from min_upload_date to the last page; removes deleted photos', async () => {
    await flickrWall({ tags: 'harbourfest,fireworks' });
    seed();
    const [first] = await h.poll();
    expect(first).toMatchObject({ status: 'ok', inserted: 3 });
    expect(Object.fromEntries(fx.searches[0]!)).toEqual({
      method: 'flickr.photos.search',
      api_key: FLICKR_KEY,
      sort: 'date-posted-desc',
      extras: 'date_upload,date_taken,owner_name,icon_server,url_l,url_c,url_m,url_q,media,tags,description,path_alias',
      per_page: '100',
      page: '1',
      tags: 'harbourfest,fireworks',
      tag_mode: 'any',
      format: 'json',
      nojsoncallback: '1',
    });

    const wall = await wallPosts(h);
    const photo = wall.get('https://www.flickr.com/photos/rosaortiz/53500000003/')!.widget;
    expect(photo).toMatchObject({
      networkName: 'Flickr',
      PostType: 2,
      postPicture: 'https://live.staticflickr.com/65535/53500000003_s000003_b.jpg',
      postFileThumb: 'https://live.staticflickr.com/65535/53500000003_s000003_q.jpg',
      postAuthorName: 'Rosa Ortiz',
      postUsername: 'rosaortiz',
      postUserPicture: `https://farm8.staticflickr.com/7372/buddyicons/${ROSA}.jpg`,
      postTags: 'harbourfest,dusk',
    });
    expect(photo.content).toBe(
      '<p><strong>Harbour &lt;at&gt; dusk</strong></p><p>Shot from the pier.<br />More on <a href="https://rosa.example" rel="nofollow noopener noreferrer" target="_blank">my site</a></p>',
    );
    expect(wall.get(`https://www.flickr.com/photos/${TOM}/53500000002/`)!.widget).toMatchObject({
      postUserPicture: 'https://www.flickr.com/images/buddyicon.gif',
      postUsername: TOM,
    });
    // a video: its Flickr file (getSizes, the best size) with the large image as poster
    expect(wall.get('https://www.flickr.com/photos/rosaortiz/53500000004/')!.widget).toMatchObject({
      PostType: 3,
      postMediaFile: `https://www.flickr.com/photos/${ROSA}/53500000004/play/site/s000004/`,
      postPicture: 'https://live.staticflickr.com/65535/53500000004_s000004_b.jpg',
    });
    expect(fx.requests.filter((r) => r.url.includes('getSizes'))).toHaveLength(1);

    // 230 new photos: three pages from the oldest stored upload; one stored photo deleted
    for (let i = 0; i < 230; i++)
      fx.photos.unshift(flickrPhoto({ id: String(53600000000 + i), uploaded: t(9) + i, tags: 'harbourfest' }));
    fx.photos.splice(
      fx.photos.findIndex((p) => p.id === '53500000002'),
      1,
    );
    fx.searches.length = 0;
    fx.requests.length = 0;
    await untilDue(h, FEED);
    const [second] = await h.poll();
    expect(second).toMatchObject({ status: 'ok', inserted: 230, updated: 0 });
    expect(fx.searches.map((s) => [s.get('page'), s.get('min_upload_date')])).toEqual([
      ['1', String(t(30))],
      ['2', String(t(30))],
      ['3', String(t(30))],
    ]);
    // the video's file is remembered: no second getSizes
    expect(fx.requests.filter((r) => r.url.includes('getSizes'))).toHaveLength(0);
    const stored = await storedPosts(h, FEED);
    expect(stored).toHaveLength(232);
    expect(stored.map((p) => p.external_id)).not.toContain('53500000002');
    expect(stored.find((p) => p.external_id === '53500000004')!.media_file).toContain('/play/site/');

    await untilDue(h, FEED);
    expect((await h.poll())[0]).toMatchObject({ status: 'ok', inserted: 0, updated: 0 });
    expect(await storedPosts(h, FEED)).toHaveLength(232);
    await expectSecretNowhere(h, FEED, connectionId, FLICKR_KEY);
  });

  it('reads a member’s photos by user_id with all of the tags', async () => {
    await flickrWall({ userId: ROSA, tags: 'harbourfest,dusk', tagMode: 'all' });
    seed();
    expect((await h.poll())[0]).toMatchObject({ status: 'ok', inserted: 1 });
    expect(Object.fromEntries(fx.searches[0]!)).toMatchObject({
      user_id: ROSA,
      tags: 'harbourfest,dusk',
      tag_mode: 'all',
    });
    expect((await storedPosts(h, FEED)).map((p) => p.external_id)).toEqual(['53500000003']);
  });

  it('code 100 (invalid API key) fails the feed and the connection; the key is never shown', async () => {
    await flickrWall({ tags: 'harbourfest' });
    seed();
    fx.mode = 'invalid-key';
    const [report] = await h.poll();
    expect(report!.status).toBe('failed');
    expect(report!.message).toContain(
      'Flickr refused the API key (code 100: Invalid API Key (Key has invalid format))',
    );
    expect(await ingestState(h, FEED)).toMatchObject({ failing: 1 });
    expect(await connectionOf(h, connectionId)).toMatchObject({ status: 'failing' });
    await expectSecretNowhere(h, FEED, connectionId, FLICKR_KEY);
  });

  it('a 429 with Retry-After puts the next poll after it', async () => {
    await flickrWall({ tags: 'harbourfest' });
    fx.mode = 'rate-limited';
    const [report] = await h.poll();
    expect(report!.status).toBe('failed');
    expect(report!.message).not.toContain(FLICKR_KEY);
    expect((await ingestState(h, FEED)).next_poll_at).toBeGreaterThanOrEqual(h.clock.now + 3600_000);
  });
});
