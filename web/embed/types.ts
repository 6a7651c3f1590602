// The embed API's wire types (the contract in the issue-12 notes): what the
// component reads from /api/embed/v1/….
export type Layout = 'masonry' | 'grid' | 'carousel' | 'event';
export type Theme = 'light' | 'dark' | 'auto';

export interface EmbedWall {
  id: number;
  name: string;
  slug: string | null;
  shoppable: boolean;
  layout: Layout;
  theme: Theme;
  columns: number | null;
  postsUrl: string;
  streamUrl: string;
}

export interface EmbedMedia {
  kind: 'image' | 'video';
  url: string;
  poster: string | null;
  alt: string | null;
  width: number | null;
  height: number | null;
}

export interface EmbedProduct {
  id: string;
  name: string;
  price: string | null;
  currency: string | null;
  url: string | null;
  image: string | null;
  left: number;
  top: number;
}

export interface EmbedPost {
  id: string;
  network: string;
  type: 'text' | 'image' | 'video' | 'carousel';
  html: string;
  author: { name: string; username: string | null; avatar: string | null; url: string | null };
  link: string | null;
  createdAt: string;
  pinned: boolean;
  highlighted: boolean;
  media: EmbedMedia[];
  cta: { text: string; url: string; color: string; background: string } | null;
  products: EmbedProduct[];
  sort: string;
}

export interface PostsPage {
  posts: EmbedPost[];
  nextCursor: string | null;
}
