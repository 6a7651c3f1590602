// The one envelope of every v2 response (contract §1) and its two renderings.
import type { FastifyReply } from 'fastify';
import { renderXml } from './xml.js';

export type Format = 'json' | 'xml';

export const CONTENT_TYPES: Record<Format, string> = {
  json: 'application/json; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
};

export function successData(data: unknown) {
  return { responseCode: 200, responseStatus: 'success', responseData: data };
}

export function successMessage(message: string) {
  return { responseCode: 200, responseStatus: 'success', responseMessage: message };
}

/** Renders an envelope in the chosen format; the status line always equals responseCode. */
export function renderBody(format: Format, envelope: Record<string, unknown>): string {
  return format === 'xml' ? renderXml(envelope) : JSON.stringify(envelope);
}

export function sendEnvelope(
  reply: FastifyReply,
  format: Format,
  envelope: { responseCode: number } & Record<string, unknown>,
) {
  return reply.code(envelope.responseCode).type(CONTENT_TYPES[format]).send(renderBody(format, envelope));
}

/** Error envelope: JSON orders code, status, message; XML orders status, message, code (api-v2.md). */
export function errorEnvelope(format: Format, code: number, message: string) {
  return format === 'xml'
    ? { responseStatus: 'error', responseMessage: message, responseCode: code }
    : { responseCode: code, responseStatus: 'error', responseMessage: message };
}

export function sendError(reply: FastifyReply, format: Format, code: number, message: string) {
  return reply
    .code(code)
    .type(CONTENT_TYPES[format])
    .send(renderBody(format, errorEnvelope(format, code, message)));
}
