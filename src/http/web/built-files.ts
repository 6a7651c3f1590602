// How the built front ends' files (dist/web/assets, dist/console/assets) are
// sent: their brotli and gzip copies, made by the build (vite.config.ts), to
// who asks for them (@fastify/static's preCompressed), never on their own;
// their source maps only when WEB_SOURCE_MAPS=public.
import { existsSync } from 'node:fs';

/** Files the static routes never send as such: the precompressed copies (sent for their file), and maps unless public. */
export const servedPath = (sourceMaps: boolean) => (path: string) =>
  !/\.(br|gz)$/.test(path) && (sourceMaps || !path.endsWith('.map'));

/**
 * The headers of a built file: it differs by Accept-Encoding (its .br/.gz
 * copy is sent to who asks), and, when maps are public, a script names its
 * map by the SourceMap header (the files themselves name none).
 */
export function builtFileHeaders(
  res: { setHeader(name: string, value: string): unknown },
  file: string,
  sourceMaps: boolean,
): void {
  res.setHeader('Vary', 'Accept-Encoding');
  // `file` is the copy sent: NAME.js.br for NAME.js
  const plain = file.replace(/\.(br|gz)$/, '');
  if (sourceMaps && plain.endsWith('.js') && existsSync(`${plain}.map`)) {
    res.setHeader('SourceMap', `${plain.replace(/^.*[\\/]/, '')}.map`);
  }
}
