// A post's text as the wall shows it, made safely: its HTML is parsed into an
// inert document (DOMParser: nothing in it runs or loads) and turned into
// React elements, keeping only what the server's allowlist for writes keeps
// (src/domain/sanitize.ts: CONTENT_TAGS, links with an http(s) address) —
// every other element gives its text (or nothing, for script, style and the
// like), every attribute but a link's address goes. React sets the text and
// the address itself: no markup string ever reaches innerHTML. The server's
// sanitizer stays the truth: this shows, before saving, what it will keep.
import { createElement, Fragment, useMemo, type ReactNode } from 'react';
import { clipBlocks, textBlocks } from './text';
import './PostText.css';

/** The elements a written post keeps (src/domain/sanitize.ts CONTENT_TAGS). */
const KEPT = new Set([
  'b',
  'i',
  'em',
  'strong',
  'u',
  's',
  'br',
  'p',
  'ul',
  'ol',
  'li',
  'blockquote',
  'code',
  'pre',
  'span',
  'a',
]);
/** Elements removed with their text (src/domain/sanitize.ts REMOVED_WITH_TEXT). */
const REMOVED_WITH_TEXT = new Set([
  'script',
  'style',
  'template',
  'textarea',
  'option',
  'noscript',
  'noembed',
  'noframes',
  'xmp',
  'iframe',
  'object',
  'embed',
  'svg',
  'math',
  'head',
  'title',
]);
const LINK_REL = 'nofollow noopener noreferrer';

const httpHref = (href: string | null): string | null => {
  if (href === null) return null;
  try {
    const url = new URL(href.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
};

/** What the allowlist makes of a post's HTML: React nodes, and what it leaves out (in words). */
export interface Sanitized {
  nodes: ReactNode[];
  /** e.g. "img elements", "onclick attributes", "links that are not http(s)" — once each, in order */
  removed: string[];
}

export function sanitizedPost(html: string): Sanitized {
  const body = new DOMParser().parseFromString(html, 'text/html').body;
  const removed = new Set<string>();
  let key = 0;
  const convert = (node: Node): ReactNode[] => {
    const out: ReactNode[] = [];
    for (const child of node.childNodes) {
      if (child.nodeType === Node.TEXT_NODE) {
        out.push(child.textContent ?? '');
        continue;
      }
      if (child.nodeType !== Node.ELEMENT_NODE) continue;
      const el = child as Element;
      const tag = el.tagName.toLowerCase();
      if (REMOVED_WITH_TEXT.has(tag)) {
        removed.add(`${tag} elements with their content`);
        continue;
      }
      if (!KEPT.has(tag)) {
        removed.add(`${tag} elements (their text stays)`);
        out.push(...convert(el));
        continue;
      }
      for (const attr of el.getAttributeNames())
        if (!(tag === 'a' && (attr === 'href' || attr === 'title' || attr === 'rel' || attr === 'target')))
          removed.add(`${attr} attributes`);
      if (tag === 'a') {
        const href = httpHref(el.getAttribute('href'));
        if (href === null) {
          removed.add('links that are not http or https (their text stays)');
          out.push(createElement('span', { key: key++ }, ...convert(el)));
        } else out.push(createElement('a', { key: key++, href, rel: LINK_REL, target: '_blank' }, ...convert(el)));
        continue;
      }
      out.push(tag === 'br' ? createElement('br', { key: key++ }) : createElement(tag, { key: key++ }, ...convert(el)));
    }
    return out;
  };
  const nodes = convert(body);
  return { nodes, removed: [...removed] };
}

/** A post's text with its paragraphs, lists and links, as the allowlist keeps them. */
export function PostHtml({ html, className, id }: { html: string; className?: string; id?: string }) {
  const { nodes } = useMemo(() => sanitizedPost(html), [html]);
  return (
    <div className={className ? `post-html ${className}` : 'post-html'} id={id}>
      {nodes.length > 0 ? createElement(Fragment, null, ...nodes) : <em>(no text)</em>}
    </div>
  );
}

/**
 * A post's text in short: its title (bold) and its paragraphs as blocks of
 * their own, the first `max` characters — for lists of posts.
 */
export function PostTextBlocks({ html, max, id }: { html: string; max: number; id?: string }) {
  const blocks = useMemo(() => clipBlocks(textBlocks(html), max), [html, max]);
  return (
    <div className="post-text" id={id}>
      {blocks.length === 0 ? (
        <p>
          <em>(no text)</em>
        </p>
      ) : (
        blocks.map((b, i) =>
          b.title ? (
            <p key={i} className="post-title">
              <strong>{b.text}</strong>
            </p>
          ) : (
            <p key={i}>{b.text}</p>
          ),
        )
      )}
    </div>
  );
}
