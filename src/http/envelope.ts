// The one envelope of every v2 response (contract §1) and its two renderings.
import type { FastifyReply } from 'fastify';
import { renderXml, renderXmlListItem } from './xml.js';

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

/** One item of a list, rendered alone; `renderListBody` joins such items into the envelope. */
export function renderListItem(format: Format, listName: string, item: Record<string, unknown>): string {
  return format === 'xml' ? renderXmlListItem(listName, item) : JSON.stringify(item);
}

/**
 * The success envelope of a list read, `responseData: [{ ...head, [listName]: items }]`,
 * in UTF-8, from items rendered beforehand (`renderListItem`, then UTF-8):
 * byte-identical to `renderBody(format, successData([{ ...head, [listName]: items }]))`,
 * the list being the last field (a test holds the two equal). The items are
 * copied once, never decoded or encoded again.
 */
export function renderListBody(
  format: Format,
  head: Record<string, unknown>,
  listName: string,
  items: readonly Buffer[],
): Buffer {
  if (items.length === 0) return Buffer.from(renderBody(format, successData([{ ...head, [listName]: [] }])));
  if (format === 'xml') {
    // a list's items are sibling elements at the end of the one responseData element
    const base = renderXml(successData([head]));
    const empty = base.endsWith(XML_EMPTY_END);
    const cut = base.length - (empty ? XML_EMPTY_END : XML_LIST_END).length;
    return Buffer.concat([
      Buffer.from(`${base.slice(0, cut)}${empty ? '<responseData>' : ''}`),
      ...items,
      XML_LIST_END_BYTES,
    ]);
  }
  const base = JSON.stringify(successData([{ ...head, [listName]: [] }]));
  const parts: Buffer[] = [Buffer.from(base.slice(0, -JSON_LIST_END.length))];
  for (const [i, item] of items.entries()) {
    if (i > 0) parts.push(COMMA);
    parts.push(item);
  }
  parts.push(JSON_LIST_END_BYTES);
  return Buffer.concat(parts);
}

const XML_LIST_END = '</responseData></xml>\n';
const XML_LIST_END_BYTES = Buffer.from(XML_LIST_END);
/** the same when the head renders to nothing */
const XML_EMPTY_END = '<responseData/></xml>\n';
/** what an empty list in the last field of the one responseData object ends with */
const JSON_LIST_END = ']}]}';
const JSON_LIST_END_BYTES = Buffer.from(JSON_LIST_END);
const COMMA = Buffer.from(',');

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
