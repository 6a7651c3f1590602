// The posts a wall shows, kept in the API's order (`sort` descending) while
// pages, live events and polls arrive in any order. Pure logic, no DOM.
import type { EmbedPost } from './types.js';

const bySortDesc = (a: EmbedPost, b: EmbedPost) => (a.sort < b.sort ? 1 : a.sort > b.sort ? -1 : 0);

/** live changes remembered for pages still in flight (enough for minutes of a busy wall) */
const TOUCHED_MAX = 5_000;

export class PostList {
  private byId = new Map<string, EmbedPost>();
  /** change counter, and the count at each post's last live change (upsert or remove) */
  private seq = 0;
  private touched = new Map<string, number>();
  /** the live version of posts a live upsert left to the cursor (they sorted below the loaded range) */
  private deferred = new Map<string, EmbedPost>();
  private sorted: EmbedPost[] = [];
  /** cursor of the next page; null once the last page was read */
  nextCursor: string | null = null;
  /** false until the first page arrived */
  loaded = false;

  get posts(): readonly EmbedPost[] {
    return this.sorted;
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  /**
   * Taken before a page is requested and handed back with it: a page read
   * before a live change must not undo it (bring back a removed post, drop
   * a new one, or restore an edited post's old version).
   */
  mark(): number {
    return this.seq;
  }

  private changedSince(id: string, since: number): boolean {
    return (this.touched.get(id) ?? -1) > since;
  }

  private touch(id: string): void {
    this.deferred.delete(id);
    this.touched.delete(id);
    this.touched.set(id, ++this.seq);
    if (this.touched.size > TOUCHED_MAX) this.touched.delete(this.touched.keys().next().value!);
  }

  /** The first page, read anew: replaces everything (a `reset`, a first load). */
  reset(posts: EmbedPost[], nextCursor: string | null): void {
    this.byId = new Map(posts.map((p) => [p.id, p]));
    this.nextCursor = nextCursor;
    this.loaded = true;
    this.resort();
  }

  /** A further page: its posts go below; one already shown (a live upsert got there first) is updated. */
  appendPage(posts: EmbedPost[], nextCursor: string | null, since = this.seq): EmbedPost[] {
    const added: EmbedPost[] = [];
    for (const post of posts) {
      if (this.changedSince(post.id, since)) continue;
      if (!this.byId.has(post.id)) added.push(post);
      this.byId.set(post.id, post);
    }
    this.nextCursor = nextCursor;
    // a post that moved down live (unpinned) while this page was on its way:
    // its live version goes in once the loaded range reaches it
    const lowest = posts[posts.length - 1]?.sort;
    for (const [id, post] of this.deferred) {
      if (nextCursor === null || (lowest !== undefined && post.sort >= lowest)) {
        this.deferred.delete(id);
        if (!this.byId.has(id)) added.push(post);
        this.byId.set(id, post);
      }
    }
    this.resort();
    return added;
  }

  /**
   * A live post (created, edited, pinned…). A post that would sort below the
   * last one loaded while more pages remain is left to the cursor — adding it
   * now would show it twice, or leave a gap above it. Returns 'added',
   * 'updated' or 'ignored'.
   */
  upsert(post: EmbedPost): 'added' | 'updated' | 'ignored' {
    this.touch(post.id);
    const known = this.byId.has(post.id);
    const last = this.sorted[this.sorted.length - 1];
    if (this.nextCursor !== null && last && post.sort < last.sort) {
      // it moved below the loaded range (unpinned): the cursor brings it back later
      if (known) this.byId.delete(post.id);
      this.deferred.set(post.id, post);
      this.resort();
      return 'ignored';
    }
    this.byId.set(post.id, post);
    this.resort();
    return known ? 'updated' : 'added';
  }

  remove(id: string): boolean {
    this.touch(id);
    if (!this.byId.delete(id)) return false;
    this.resort();
    return true;
  }

  /**
   * A fresh first page from a poll: its posts are upserted, and a shown post
   * that sorts within that page's range but is missing from it is gone (hidden
   * or deleted). Returns the posts that were not shown before.
   */
  mergeFirstPage(posts: EmbedPost[], nextCursor: string | null, since = this.seq): EmbedPost[] {
    posts = posts.filter((p) => !this.changedSince(p.id, since));
    const fresh = new Set(posts.map((p) => p.id));
    const lowest = posts[posts.length - 1]?.sort;
    for (const post of [...this.sorted]) {
      const inRange = nextCursor === null || (lowest !== undefined && post.sort >= lowest);
      if (inRange && !fresh.has(post.id) && !this.changedSince(post.id, since)) this.byId.delete(post.id);
    }
    const added = posts.filter((p) => !this.byId.has(p.id));
    for (const post of posts) this.byId.set(post.id, post);
    if (!this.loaded) {
      this.nextCursor = nextCursor;
      this.loaded = true;
    }
    this.resort();
    return added;
  }

  private resort(): void {
    this.sorted = [...this.byId.values()].sort(bySortDesc);
  }
}
