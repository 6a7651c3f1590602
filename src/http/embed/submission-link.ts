// While a wall takes attendee uploads, the event screen's QR code points at
// its submission page: the wall's answer (the embed API's, and the hosted
// page's first render, which is the same answer) carries the page's URL as
// the branding's info URL, whatever the operator set there.
import type { FastifyRequest } from 'fastify';
import type { EmbedWall } from '../../schemas/embed.js';
import { findSubmission } from '../../store/uploads.js';
import { requestBase } from '../self-url.js';

export async function withSubmissionLink(request: FastifyRequest, wall: EmbedWall): Promise<EmbedWall> {
  const submission = await findSubmission(request.server.ctx.store.db, wall.id);
  if (!submission?.enabled) return wall;
  return { ...wall, branding: { ...wall.branding, infoUrl: `${requestBase(request)}/walls/${wall.id}/submit` } };
}
