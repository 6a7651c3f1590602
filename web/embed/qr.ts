// The event screen's QR code, loaded only there (a chunk of its own, so the
// embed's main script stays small): the modules of a QR code as one SVG path,
// drawn by the component through a Lit template (no markup from strings).
import { encode } from 'uqr';

/** The quiet zone around the code, in modules (the standard asks for 4). */
export const QUIET = 4;

export interface QrCode {
  /** the side in modules, quiet zone included */
  size: number;
  /** an SVG path of the dark modules (one unit square each), offset by the quiet zone */
  path: string;
}

/** `text` (a URL) as a QR code at error correction level M. */
export function qrCode(text: string): QrCode {
  const { data, size } = encode(text, { ecc: 'M', border: 0 });
  let path = '';
  for (let y = 0; y < size; y++) {
    const row = data[y]!;
    for (let x = 0; x < size; x++) {
      if (!row[x]) continue;
      // a run of dark modules as one rectangle
      let run = 1;
      while (x + run < size && row[x + run]) run++;
      path += `M${x + QUIET} ${y + QUIET}h${run}v1h-${run}z`;
      x += run - 1;
    }
  }
  return { size: size + 2 * QUIET, path };
}
