// The committed HEIC test picture (test/fixtures/media/iphone-portrait.heic,
// how it was made in the README beside it) and what it must look like once
// converted: 480 × 640 upright (coded 640 × 480 with an irot box, as an
// iPhone stores a portrait photo), the red square at the top right, the sky
// on the right, the grass on the left.
import { readFileSync } from 'node:fs';
import sharp from 'sharp';

export const HEIC_SAMPLE_PATH = new URL('../fixtures/media/iphone-portrait.heic', import.meta.url).pathname;
/** Its size once upright. */
export const HEIC_UPRIGHT = { width: 480, height: 640 } as const;
/** The GPSMapDatum of its EXIF GPS block: found in the sample, it must be in nothing stored. */
export const HEIC_GPS_MARK = 'WALLERY-GPS-MARK';

/** A fresh copy each time: a MediaPool moves the bytes it is given to its worker. */
export const heicSample = (): Buffer => readFileSync(HEIC_SAMPLE_PATH);

type Rgb = [number, number, number];
const isRed = ([r, g, b]: Rgb) => r > 200 && g < 70 && b < 70;
const isSky = ([r, g, b]: Rgb) => b > r + 80 && b > g + 20;
const isGrass = ([r, g, b]: Rgb) => g > r + 25 && g > b + 25;

/**
 * Where the sample's parts are in a picture made from it (any size, any
 * format sharp reads): each true when that part is where it belongs upright.
 */
export async function heicSampleLayout(picture: Uint8Array) {
  const { data, info } = await sharp(picture).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number): Rgb => {
    const i = (Math.floor(y * info.height) * info.width + Math.floor(x * info.width)) * info.channels;
    return [data[i]!, data[i + 1]!, data[i + 2]!];
  };
  return {
    redTopRight: isRed(at(0.9, 0.07)),
    skyRight: isSky(at(0.9, 0.5)),
    grassLeft: isGrass(at(0.1, 0.5)),
    notRedTopLeft: !isRed(at(0.1, 0.07)),
  };
}

export const UPRIGHT_LAYOUT = { redTopRight: true, skyRight: true, grassLeft: true, notRedTopLeft: true } as const;
