// A large photo is made smaller on the phone before it is sent: a wall shows
// pictures at most 1,600 px wide (the media pipeline's largest rendition), so
// a 12–48 MP original is mostly bytes nobody sees, sent over a venue's
// crowded network. Measured (bench/upload-resume.ts): a 10 MB photo becomes
// about 1 MB, and sending it takes a tenth of the time — on every upload, not
// only the ones a dropped connection would cost (which resumable upload, tus,
// would save; not used: see docs/design-decisions.md).
//
// Only what the browser decodes itself is redrawn (JPEG, PNG, WebP; HEIC on
// Safari); anything else — or a photo the phone cannot decode for lack of
// memory — is sent as it is, and the server converts and checks it as ever.
// The redrawn copy carries no metadata: EXIF and GPS never leave the phone.

/** the longest side of a redrawn photo (px): headroom over the largest rendition */
export const LONG_EDGE = 2_560;
/** photos up to this size and within LONG_EDGE are sent as they are */
export const SHRINK_ABOVE_BYTES = 1_500_000;
const QUALITY = 0.88;

/** The photo to send: `file` itself, or a smaller JPEG of it when that is worth it. */
export async function shrinkPhoto(file: File): Promise<File> {
  if (!/^image\/(jpeg|png|webp|heic|heif)$/.test(file.type) || typeof createImageBitmap !== 'function') return file;
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    return file;
  }
  try {
    const scale = Math.min(1, LONG_EDGE / Math.max(bitmap.width, bitmap.height));
    if (scale === 1 && file.size <= SHRINK_ABOVE_BYTES) return file;
    const width = Math.round(bitmap.width * scale);
    const height = Math.round(bitmap.height * scale);
    const blob = await drawJpeg(bitmap, width, height);
    if (!blob || blob.size >= file.size) return file;
    return new File([blob], `${file.name.replace(/\.[^.]*$/, '') || 'photo'}.jpg`, { type: 'image/jpeg' });
  } catch {
    return file;
  } finally {
    bitmap.close();
  }
}

async function drawJpeg(bitmap: ImageBitmap, width: number, height: number): Promise<Blob | null> {
  if (typeof OffscreenCanvas === 'function') {
    const canvas = new OffscreenCanvas(width, height);
    const g = canvas.getContext('2d');
    if (!g) return null;
    g.imageSmoothingQuality = 'high';
    g.drawImage(bitmap, 0, 0, width, height);
    return canvas.convertToBlob({ type: 'image/jpeg', quality: QUALITY });
  }
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const g = canvas.getContext('2d');
  if (!g) return null;
  g.imageSmoothingQuality = 'high';
  g.drawImage(bitmap, 0, 0, width, height);
  return new Promise((resolve) => canvas.toBlob(resolve, 'image/jpeg', QUALITY));
}
