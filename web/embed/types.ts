// The embed API's wire types: what the component reads from /api/embed/v1/…,
// typed by the server's own schemas (src/schemas/embed.ts).
export type {
  EmbedCopy,
  EmbedMedia,
  EmbedPost,
  EmbedProduct,
  EmbedWall,
  Layout,
  Theme,
} from '../../src/schemas/embed.js';
import type { EmbedPost } from '../../src/schemas/embed.js';
import type { EmbedPolledScreen } from '../../src/schemas/screen.js';

export interface PostsPage {
  posts: EmbedPost[];
  nextCursor: string | null;
  /** the wall's live screen state (first page only, once the screen was ever controlled) */
  screen?: EmbedPolledScreen;
}
