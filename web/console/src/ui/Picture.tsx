// A post's picture in the console: Wallery's copy when it has one, else the
// original; each source that fails to load gives way to the next, and when
// none is left a box says so — never a broken-image icon.
import { useState, type ReactNode } from 'react';
import type { Post } from '../api/client';

type Copies = Post['copies'];

/** The URL of Wallery's copy of the picture in `slot` (`item:0`, `avatar`), when it is ready. */
export const copyUrl = (copies: Copies, slot: string): string | null =>
  copies.pictures.find((p) => p.slot === slot && p.state === 'ready')?.url ?? null;

/** The post's main picture: its copy first, then the stored originals (a video's poster, never the video). */
export function mainPictures(post: Pick<Post, 'copies' | 'picture' | 'file' | 'fileThumb' | 'children' | 'media'>) {
  const originals =
    post.media === 'video'
      ? [post.fileThumb, post.picture, post.children.find((c) => c.image)?.image]
      : [post.picture, post.file, post.fileThumb, post.children.find((c) => c.image)?.image];
  return [copyUrl(post.copies, 'item:0'), ...originals].filter((u): u is string => !!u);
}

/** What the console says of a post's pictures when it is not that all are in: fetching, or why they failed. */
export function copiesNote(copies: Copies): { text: string; tone: 'warn' | 'bad' } | null {
  const reason = copies.pictures.find((p) => p.reason)?.reason;
  switch (copies.state) {
    case 'pending':
      return { text: 'pictures being fetched', tone: 'warn' };
    case 'failed':
      return { text: `pictures failed${reason ? `: ${reason}` : ''}`, tone: 'bad' };
    case 'partial':
      return { text: `some pictures failed${reason ? `: ${reason}` : ''}`, tone: 'warn' };
    default:
      return null;
  }
}

interface PictureProps {
  /** in order of preference */
  sources: readonly string[];
  alt: string;
  className?: string;
  /** shown when no source loads (nothing by default) */
  fallback?: ReactNode;
  loading?: 'lazy' | 'eager';
}

export function Picture({ sources, alt, className, fallback = null, loading = 'lazy' }: PictureProps) {
  const [failed, setFailed] = useState<readonly string[]>([]);
  const src = sources.find((s) => !failed.includes(s));
  if (!src) return <>{fallback}</>;
  return (
    <img
      className={className}
      src={src}
      alt={alt}
      loading={loading}
      decoding="async"
      onError={() => setFailed((list) => [...list, src])}
    />
  );
}
