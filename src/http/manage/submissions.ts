// A wall's submission page (attendee uploads): its settings, with the page's
// public URL and poster.
import type { FastifyInstance } from 'fastify';
import { getSubmission, putSubmission } from '../../manage/submissions.js';
import { SubmissionBody, SubmissionRecord } from '../../schemas/submissions.js';
import { NoQuery } from '../../schemas/fields.js';
import { requestBase } from '../self-url.js';
import { opOf } from './auth.js';
import { db, num } from './common.js';
import { manageRoute } from './route.js';
import { WallParams } from './schemas.js';

export async function submissionRoutes(app: FastifyInstance) {
  const route = manageRoute(app, 'manage: submission page');

  route.get(
    '/walls/:wallId/submission',
    {
      access: ['viewer', 'wall'],
      summary: 'A wall’s submission page',
      description:
        'Where attendees post a photo and/or a line of text with no app and no account (off until enabled). ' +
        '`url` is the public page, `posterUrl` a printable SVG poster with its QR code.',
      params: WallParams,
      query: NoQuery,
      ok: [200, SubmissionRecord, 'the settings'],
      errors: [404],
    },
    async (request) => getSubmission(db(request), num(request.params.wallId), requestBase(request)),
  );

  route.put(
    '/walls/:wallId/submission',
    {
      access: ['editor', 'wall'],
      summary: 'Change a wall’s submission page',
      description:
        'The fields given change, the others stay. `enabled: false` is the kill switch: the page, its challenge and ' +
        'its upload answer 404 at once (posts already taken stay). A new `consentText` takes the next ' +
        '`consentVersion`; each upload keeps the version and text it agreed to.',
      params: WallParams,
      body: SubmissionBody,
      ok: [200, SubmissionRecord, 'the settings as stored'],
      errors: [404, 409],
    },
    async (request) => putSubmission(opOf(request), num(request.params.wallId), request.body, requestBase(request)),
  );
}
