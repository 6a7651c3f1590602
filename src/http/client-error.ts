// Answers for requests that Node's HTTP parser refuses before Fastify sees
// them (contract §2): a request line or headers over Node's limit (16 KiB)
// → 431, anything else it cannot parse (bad header bytes, an unknown method,
// a Content-Length that lies and leaves garbage where the next request should
// start) → 400. Nothing of the request was read, `format` included, so the
// envelope is always JSON. The connection is closed after the answer: the
// parser cannot tell where a next request would begin.
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { CONTENT_TYPES, errorEnvelope, renderBody } from './envelope.js';
import { MESSAGES } from './errors.js';

type ClientError = Error & { code?: string };
/** Node keeps the response that currently owns a connection here (pipelined ones wait their turn). */
type HttpSocket = Socket & { _httpMessage?: ServerResponse | null };

export function clientErrorAnswer(err: ClientError): { code: number; message: string } {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return { code: 431, message: MESSAGES.headersTooLarge };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { code: 408, message: MESSAGES.requestTimeout };
    default:
      return { code: 400, message: MESSAGES.badRequest };
  }
}

/** Fastify's `clientErrorHandler`: one complete HTTP response in the envelope, then the socket is gone. */
export function clientErrorHandler(this: FastifyInstance, err: ClientError, socket: Socket): void {
  // a reset connection has nobody left to answer
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  this.log.debug({ code: err.code }, 'client error');
  const { code, message } = clientErrorAnswer(err);
  const body = renderBody('json', errorEnvelope('json', code, message));
  const answer =
    `HTTP/1.1 ${code} ${STATUS_CODES[code]}\r\n` +
    `Content-Type: ${CONTENT_TYPES.json}\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Connection: close\r\n\r\n' +
    body;
  whenIdle(socket as HttpSocket, () => {
    if (!socket.writable) return void socket.destroy();
    // end() flushes the answer; destroy() then, as the peer may keep its
    // side open and a half-open socket would linger
    socket.end(answer, () => socket.destroy());
  });
}

/**
 * Runs `fn` once no response is in progress on the socket: requests parsed
 * whole before the bad bytes (pipelining, or a Content-Length shorter than
 * the body) get their own answers first, in order, and the error answer never
 * lands inside one of them. A request whose own body could not be parsed will
 * never be whole: it gets the error answer (or, had its answer already begun,
 * just the closed connection).
 */
function whenIdle(socket: HttpSocket, fn: () => void): void {
  const current = socket._httpMessage;
  if (!current || current.writableFinished) return fn();
  if (!current.req.complete) return current.headersSent ? void socket.destroy() : fn();
  const next = () => {
    cleanup();
    // Node hands the socket to the next pipelined response on 'finish'
    whenIdle(socket, fn);
  };
  const gone = () => {
    cleanup();
    socket.destroy();
  };
  const cleanup = () => {
    current.off('finish', next);
    socket.off('close', gone);
  };
  current.once('finish', next);
  socket.once('close', gone);
}
