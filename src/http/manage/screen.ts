// A wall's live screen control: the state (read by viewers, changed by
// moderators), its slides and its schedule (editors). Every screen of the
// wall obeys within a couple of seconds, on every instance: the writes
// announce the wall and the embed stream sends the new state as `screen`.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import {
  controlScreen,
  createSlide,
  deleteSlide,
  getScreen,
  listSlides,
  putSchedule,
  updateSlide,
} from '../../manage/screen.js';
import { IdString, NoQuery } from '../../schemas/fields.js';
import {
  ScheduleBody,
  ScreenPatchBody,
  ScreenStateRecord,
  SlideCreateBody,
  SlideList,
  SlidePatchBody,
  SlideRecord,
} from '../../schemas/screen.js';
import { opOf } from './auth.js';
import { db, num } from './common.js';
import { manageRoute } from './route.js';
import { WallParams } from './schemas.js';

const SlideParams = Type.Object({ wallId: IdString('wallId'), slideId: IdString('slideId') });

export async function screenRoutes(app: FastifyInstance) {
  const route = manageRoute(app, 'manage: live screen');

  route.get(
    '/walls/:wallId/screen',
    {
      access: ['viewer', 'wall'],
      summary: 'A wall’s live screen state',
      description:
        'What the host has set for every screen of the wall: paused, the post in the spotlight and the slide shown ' +
        'on demand (until when), posts kept off the screen, a layout, theme and QR override, the schedule.',
      params: WallParams,
      query: NoQuery,
      ok: [200, ScreenStateRecord, 'the state'],
      errors: [404],
    },
    async (request) => getScreen(db(request), num(request.params.wallId)),
  );

  route.patch(
    '/walls/:wallId/screen',
    {
      access: ['moderator', 'wall'],
      summary: 'Control a wall’s screens live',
      description:
        'Pause or resume, spotlight an approved post or show a slide full-screen for a number of seconds (null ends ' +
        'it), hide posts from the screen or show them again, change the layout, theme or QR code. Every screen of ' +
        'the wall, on every instance, gets the new state on its stream (`screen` event) within 2 s. Audited.',
      params: WallParams,
      body: ScreenPatchBody,
      ok: [200, ScreenStateRecord, 'the state after the change'],
      errors: [404, 409],
    },
    async (request) => controlScreen(opOf(request), num(request.params.wallId), request.body),
  );

  route.put(
    '/walls/:wallId/screen/schedule',
    {
      access: ['editor', 'wall'],
      summary: 'Replace a wall’s screen schedule',
      description:
        'On/off times (doors open, breaks, the end): from each entry’s `at` on, the screen shows the wall (`on`), a ' +
        'closing screen (`off`, with an optional message) or a full-screen `message`. Kept in time order. Audited.',
      params: WallParams,
      body: ScheduleBody,
      ok: [200, ScreenStateRecord, 'the state with the new schedule'],
      errors: [404, 409],
    },
    async (request) => putSchedule(opOf(request), num(request.params.wallId), request.body),
  );

  route.get(
    '/walls/:wallId/screen/slides',
    {
      access: ['viewer', 'wall'],
      summary: 'A wall’s announcement and sponsor slides',
      params: WallParams,
      query: NoQuery,
      ok: [200, SlideList, 'the slides, oldest first'],
      errors: [404],
    },
    async (request) => listSlides(db(request), num(request.params.wallId)),
  );

  route.post(
    '/walls/:wallId/screen/slides',
    {
      access: ['editor', 'wall'],
      summary: 'Add a slide',
      description:
        'A full-screen slide (title, text, an http(s) picture, a sponsor label), shown on demand (`showSlide`) and, ' +
        'with `everyPosts`, in the rotation after every that many posts, between `startsAt` and `endsAt`. Audited.',
      params: WallParams,
      body: SlideCreateBody,
      ok: [201, SlideRecord, 'the slide'],
      errors: [404, 409],
    },
    async (request) => createSlide(opOf(request), num(request.params.wallId), request.body),
  );

  route.patch(
    '/walls/:wallId/screen/slides/:slideId',
    {
      access: ['editor', 'wall'],
      summary: 'Change a slide',
      params: SlideParams,
      body: SlidePatchBody,
      ok: [200, SlideRecord, 'the slide after the change'],
      errors: [404, 409],
    },
    async (request) =>
      updateSlide(opOf(request), num(request.params.wallId), num(request.params.slideId), request.body),
  );

  route.delete(
    '/walls/:wallId/screen/slides/:slideId',
    {
      access: ['editor', 'wall'],
      summary: 'Delete a slide',
      params: SlideParams,
      ok: [200, SlideRecord, 'the slide as it was'],
      errors: [404, 409],
    },
    async (request) => deleteSlide(opOf(request), num(request.params.wallId), num(request.params.slideId)),
  );
}
