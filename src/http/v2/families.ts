// The two families of API v2 as data (api-v2.md, Endpoints): widget W1–W4 and
// commerce C1–C5 are the same operations (operations.ts, each declared once)
// under other paths, names, schemas and presenters. A family without an
// operation's path (widget: no detail) does not offer it.
import type { TSchema } from 'typebox';
import type { PostRow } from '../../store/posts.js';
import type { WallRow } from '../../store/walls.js';
import type { PublicFeedRow } from '../../store/feeds.js';
import {
  commerceListWall,
  commercePost,
  commerceWallInfo,
  widgetListWall,
  widgetPost,
  widgetWallInfo,
  type DateForm,
} from './presenters.js';
import {
  CommerceListQuery,
  CommercePostList,
  CommerceWallInfo,
  WidgetListQuery,
  WidgetPostList,
  WidgetWallInfo,
} from './schemas.js';

export type FamilyName = 'widget' | 'commerce';

/** The operations, in the order of their numbers (W1/C1 is `info`, …, C5 is `detail`). */
export const OPERATION_NAMES = ['info', 'posts', 'create', 'delete', 'detail'] as const;
export type OperationName = (typeof OPERATION_NAMES)[number];

export interface Family {
  name: FamilyName;
  /** where its paths start, under /api/v2 */
  prefix: string;
  /** the letter of its operation numbers: W1, C1, … */
  letter: string;
  /** what it calls a wall in its summaries and messages */
  noun: string;
  /** the path of each operation it offers, under `prefix` */
  paths: Partial<Record<OperationName, string>>;
  /** W1/C1: one wall record with its feeds */
  wallInfo: { schema: TSchema; present: (wall: WallRow, feeds: PublicFeedRow[], form: DateForm) => object };
  /** W2/C2: the list query, the answer, and how its wall and each post are rendered */
  postList: {
    query: typeof WidgetListQuery | typeof CommerceListQuery;
    schema: TSchema;
    /** whether `include_only_text_posts` is read */
    textFlag: boolean;
    /** the name of the posts array, beside `wall` */
    listName: string;
    wall: (wall: WallRow, form: DateForm) => object;
    post: (post: PostRow, wallProfanity: number) => object;
  };
  /** W4/C4's success message */
  deleted: string;
}

export const FAMILIES: readonly Family[] = [
  {
    name: 'widget',
    prefix: '/widget',
    letter: 'W',
    noun: 'wall',
    paths: { info: '/wallInfo/:wall_id', posts: '/posts/:wall_id', create: '/create-post', delete: '/delete/:wall_id' },
    wallInfo: { schema: WidgetWallInfo, present: widgetWallInfo },
    postList: {
      query: WidgetListQuery,
      schema: WidgetPostList,
      textFlag: true,
      listName: 'posts',
      wall: widgetListWall,
      post: widgetPost,
    },
    deleted: 'You have successfully deleted your wall.',
  },
  {
    name: 'commerce',
    prefix: '/commerce',
    letter: 'C',
    noun: 'gallery',
    paths: {
      info: '/getGalleryInfo/:wall_id',
      posts: '/getGalleryPosts/:wall_id/',
      create: '/createGalleryPost',
      delete: '/deleteGallery/:wall_id',
      detail: '/getGalleryProductByID/:wall_id/:post_id/',
    },
    // commerce dates are DD/MM/YYYY in both formats: its presenters take no form
    wallInfo: { schema: CommerceWallInfo, present: commerceWallInfo },
    postList: {
      query: CommerceListQuery,
      schema: CommercePostList,
      textFlag: false,
      listName: 'feeds',
      wall: commerceListWall,
      post: commercePost,
    },
    deleted: 'You have successfully deleted your gallery.',
  },
];
