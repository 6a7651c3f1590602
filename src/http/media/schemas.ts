// The OpenAPI description of GET /media/{hash}/{name}: its parameters, and
// each answer with the headers it carries.
import { Type } from 'typebox';
import { v2Content, errorExample } from '../openapi-responses.js';
import { errorEnvelope } from '../v2/schemas.js';
import { MESSAGES } from '../errors.js';

export const MediaParams = Type.Object(
  {
    hash: Type.String({
      pattern: '^[0-9a-f]{64}$',
      description: 'the SHA-256 (hex) of the picture as it was fetched',
    }),
    name: Type.String({
      pattern: '^[1-9][0-9]{0,4}(\\.(avif|webp|jpg|png))?$',
      description:
        'a width the picture has a rendition of (`640`: the format by Accept), or with a format (`640.webp`)',
    }),
  },
  { additionalProperties: false },
);

// @fastify/swagger turns `{ description, ...schema }` into a header object
const header = (description: string, schema: Record<string, unknown>) => ({ description, ...schema });
const HEADERS = {
  'Cache-Control': header('a stored file never changes', { const: 'public, max-age=31536000, immutable' }),
  ETag: header('the picture’s hash and the file’s name; send it back in If-None-Match for a 304', {
    type: 'string',
    pattern: '^"[0-9a-f]{64}/[1-9][0-9]{0,4}\\.(avif|webp|jpg|png)"$',
  }),
  Vary: header('a width without a format: the format depends on Accept', { const: 'Accept' }),
  'X-Content-Type-Options': header('never sniffed', { const: 'nosniff' }),
  'Content-Security-Policy': header('opened on its own, the file can run and load nothing', {
    const: "default-src 'none'; sandbox",
  }),
  'Cross-Origin-Resource-Policy': header('any site may show it', { const: 'cross-origin' }),
  'Access-Control-Allow-Origin': header('any site may read it', { const: '*' }),
  'Accept-Ranges': header('folder storage: byte ranges may be asked for', { const: 'bytes' }),
};
const RANGE = { 'Content-Range': header('the bytes sent, of the whole', { type: 'string' }) };

const FORMATS = ['image/avif', 'image/webp', 'image/jpeg', 'image/png'];
// a binary body is described by its media type (OpenAPI 3.1)
const pictures = Object.fromEntries(
  FORMATS.map((type) => [type, { schema: { type: 'string', contentMediaType: type } }]),
);

export const mediaResponses = () => ({
  200: { description: 'the rendition', headers: HEADERS, content: pictures },
  206: {
    description: 'the bytes of the rendition a Range asked for (folder storage)',
    headers: { ...HEADERS, ...RANGE },
    content: pictures,
  },
  304: { description: 'not modified: If-None-Match names this file', headers: HEADERS, type: 'null' },
  404: {
    description:
      'no such picture, no rendition of that width, its file is gone, or this instance has no media pipeline: the server’s not-found answer',
    content: v2Content(errorEnvelope(404), errorExample(404, MESSAGES.routeNotFound)),
  },
});
