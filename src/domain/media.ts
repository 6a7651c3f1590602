// Media kind of a custom post from its file URL (contract §7).
import type { MediaKind } from '../store/schema.js';

const VIDEO_EXTENSIONS = ['.mp4', '.mov', '.webm', '.m4v'];

export function mediaKindOfFile(postFile: string): MediaKind {
  if (postFile === '') return 'text';
  let path: string;
  try {
    path = new URL(postFile).pathname;
  } catch {
    path = postFile.split(/[?#]/)[0] ?? '';
  }
  path = path.toLowerCase();
  return VIDEO_EXTENSIONS.some((ext) => path.endsWith(ext)) ? 'video' : 'image';
}
