// Test pictures, made with sharp when a test runs (nothing binary is
// committed): photos with noise, so that encoders have real work; a JPEG
// carrying an EXIF orientation and a GPS position; a PNG with alpha; an
// animated GIF; and a decompression bomb built by hand.
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

/** A noisy, softened picture: encodes like a photo (smooth areas, detail), not like a flat colour. */
export const photo = (width: number, height: number) =>
  sharp({
    create: {
      width,
      height,
      channels: 3,
      background: '#7a8c9e',
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  }).blur(1.5);

export const photoJpeg = async (width: number, height: number) => photo(width, height).jpeg({ quality: 90 }).toBuffer();

/** A unique text in the GPS IFD (GPSMapDatum), beside the position: found in the source's EXIF, it proves the GPS block is there. */
export const GPS_MARK = 'WALLERY-GPS-MARK';

/**
 * A JPEG `width` × `height` as stored, with EXIF orientation 6 (to be
 * turned 90° clockwise for display) and a GPS position; its stored top-left
 * corner (100 × 100) is red, which belongs at the top right once turned.
 */
export async function orientedJpegWithGps(width: number, height: number): Promise<Buffer> {
  const corner = await sharp({ create: { width: 100, height: 100, channels: 3, background: '#ff0000' } })
    .png()
    .toBuffer();
  const flat = await sharp({ create: { width, height, channels: 3, background: '#ffffff' } })
    .composite([{ input: corner, left: 0, top: 0 }])
    .png()
    .toBuffer();
  return sharp(flat)
    .jpeg({ quality: 90 })
    .withExif({
      IFD0: { Make: 'Wallery Test Camera', Model: 'T-1' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '51/1 30/1 2648/100',
        GPSLongitudeRef: 'W',
        GPSLongitude: '0/1 7/1 3972/100',
        GPSMapDatum: GPS_MARK,
      },
    })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

/** A PNG with a half-transparent background and an opaque square. */
export async function pngWithAlpha(width: number, height: number): Promise<Buffer> {
  const square = await sharp({ create: { width: 40, height: 40, channels: 4, background: '#204080ff' } })
    .png()
    .toBuffer();
  return sharp({ create: { width, height, channels: 4, background: { r: 200, g: 60, b: 20, alpha: 0.5 } } })
    .composite([{ input: square, left: 10, top: 10 }])
    .png()
    .toBuffer();
}

/** An animated GIF of `frames` frames (red, green, blue, …), 100 ms each, looping forever. */
export async function animatedGif(width: number, height: number, frames: number): Promise<Buffer> {
  const colours = ['#ff0000', '#00ff00', '#0000ff', '#ffff00'];
  const pictures = await Promise.all(
    Array.from({ length: frames }, (_, i) =>
      sharp({ create: { width, height, channels: 3, background: colours[i % colours.length]! } })
        .png()
        .toBuffer(),
    ),
  );
  return sharp(pictures, { join: { animated: true } })
    .gif({ delay: Array.from({ length: frames }, () => 100), loop: 0 })
    .toBuffer();
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.byteLength);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A decompression bomb: a valid PNG whose header says `width` × `height`
 * (8-bit RGB; 20000 × 20000 is 1.2 GB of pixels) with a few compressed rows
 * of zeros — a file of a few hundred bytes that a decoder would need the
 * whole 1.2 GB for.
 */
export function pngBomb(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per sample
  header[9] = 2; // RGB
  const rows = deflateSync(Buffer.alloc((width * 3 + 1) * 16), { level: 9 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', rows),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
