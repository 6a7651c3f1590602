// Contract §5: every date is printed in UTC whatever the process time zone.
// This file runs its server in a zone far from UTC (UTC+14, then UTC-8): the
// sample has posts at 23:xx and 00:00 UTC, whose day would move if any date
// were printed or read in local time.
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  commerceList,
  dataEnvelope,
  findPost,
  postDetail,
  wallOf,
  widgetList,
  widgetWallInfo,
  type SampleData,
} from '../helpers/expect.js';
import { expectJsonData, expectXmlTree, get, KEYS } from '../helpers/http.js';
import { describeSample, NOW, sample } from '../helpers/sample.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { envelopeToXml } from '../helpers/xml.js';

for (const zone of ['Pacific/Kiritimati', 'America/Los_Angeles']) {
  describeSample(`dates in UTC with the process in ${zone}`, () => {
    let srv: TestServer;
    let data: SampleData;
    let previous: string | undefined;
    beforeAll(async () => {
      previous = process.env.TZ;
      process.env.TZ = zone;
      data = sample();
      srv = await startTestServer({ data, now: NOW });
    });
    afterAll(async () => {
      await srv?.close();
      if (previous === undefined) delete process.env.TZ;
      else process.env.TZ = previous;
    });

    it('the zone really is in effect', () => {
      expect(new Date(Date.UTC(2024, 0, 1)).getTimezoneOffset()).not.toBe(0);
    });

    it('W1 and W2 in JSON and XML', async () => {
      const w = wallOf(data, 7011);
      expectJsonData(
        await get(srv.baseUrl, '/api/v2/widget/wallInfo/7011', { user_key: KEYS.ent }),
        widgetWallInfo(w, 'json'),
      );
      const q = { user_key: KEYS.ent, limit: '500' };
      expectJsonData(await get(srv.baseUrl, '/api/v2/widget/posts/7011', q), widgetList(w, 'json', { limit: 500 }));
      expectXmlTree(
        await get(srv.baseUrl, '/api/v2/widget/posts/7011', { ...q, format: 'xml' }),
        envelopeToXml(dataEnvelope(widgetList(w, 'xml', { limit: 500 }))),
      );
    });

    it('C2 and C5 (product dates in both forms)', async () => {
      const w = wallOf(data, 7011);
      expectJsonData(
        await get(srv.baseUrl, '/api/v2/commerce/getGalleryPosts/7011/', { user_key: KEYS.ent, limit: '500' }),
        commerceList(w, { limit: 500 }),
      );
      const path = '/api/v2/commerce/getGalleryProductByID/7011/17010/';
      expectJsonData(
        await get(srv.baseUrl, path, { user_key: KEYS.ent }),
        postDetail(data, findPost(data, 17010), 'json'),
      );
      expectXmlTree(
        await get(srv.baseUrl, path, { user_key: KEYS.ent, format: 'xml' }),
        envelopeToXml(dataEnvelope(postDetail(data, findPost(data, 17010), 'xml'))),
      );
    });

    it('date_from is read as 00:00 UTC of the day', async () => {
      const w = wallOf(data, 7011);
      for (const d of ['17/07/2024', '18/07/2024', '02/12/2024', '01/12/2024']) {
        expectJsonData(
          await get(srv.baseUrl, '/api/v2/commerce/getGalleryPosts/7011/', { user_key: KEYS.ent, date_from: d }),
          commerceList(w, { dateFrom: d }),
        );
      }
    });

    it('the quota day and X-RateLimit-Reset follow UTC midnight', async () => {
      srv.clock.now = Date.UTC(2026, 0, 15, 23, 30);
      const res = await get(srv.baseUrl, '/api/v2/widget/wallInfo/7016', { user_key: KEYS.tiny });
      expect(res.headers.get('x-ratelimit-reset')).toBe(String(Date.UTC(2026, 0, 16) / 1000));
    });
  });
}
