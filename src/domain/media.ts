// Media kind of a custom post from its file URL (contract §7).
import type { MediaKind } from './lists.js';

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

/** A carousel child as v2's `childNode` shows it: exactly these two fields. */
export interface ChildNode {
  image: string;
  video: string;
}

/** A carousel child as stored: with its alt text where it has one (management API, data file). */
export interface StoredChild extends ChildNode {
  alt?: string;
}

export function storedChildren(json: string): StoredChild[] {
  return (JSON.parse(json) as StoredChild[]).map((c) => ({
    image: c.image,
    video: c.video,
    ...(typeof c.alt === 'string' && c.alt !== '' ? { alt: c.alt } : {}),
  }));
}

/** The stored children in v2's `childNode` shape (their alt text is not part of the contract). */
export function parseChildren(json: string): ChildNode[] {
  return (JSON.parse(json) as StoredChild[]).map((c) => ({ image: c.image, video: c.video }));
}
