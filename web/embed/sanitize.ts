// Defence in depth: a post's `html` is sanitized by the server already (the
// allowlist of src/domain/sanitize.ts). The client passes it through the same
// allowlist once more before it becomes markup, so a server bug alone cannot
// put script on a host page. The markup is parsed by DOMParser into an inert
// document (nothing in it runs or loads), every element or attribute outside the
// allowlist is dropped, and only http(s)/mailto links and http(s) images
// stay. (DOMPurify would add ~12 KB gzipped, half the script's budget.)

const KEEP = new Set(['A', 'B', 'I', 'EM', 'STRONG', 'U', 'S', 'BR', 'P', 'UL', 'OL', 'LI', 'BLOCKQUOTE', 'CODE']);
['PRE', 'SPAN', 'IMG'].forEach((t) => KEEP.add(t));
/** whose content goes with them (the others keep their text) */
const DROP_WHOLE =
  /^(SCRIPT|STYLE|TEMPLATE|IFRAME|OBJECT|EMBED|SVG|MATH|NOSCRIPT|TEXTAREA|TITLE|XMP|NOEMBED|NOFRAMES)$/;
const ATTRS: Record<string, string[]> = {
  A: ['href', 'title'],
  IMG: ['src', 'alt', 'title', 'class', 'width', 'height'],
};

/** Whether a picture in the text may load (the hosted page: only Wallery's own); one that may not leaves its alt text. */
type ImgAllowed = (src: string) => boolean;

function clean(node: Node, imgAllowed: ImgAllowed): void {
  for (const child of [...node.childNodes]) {
    if (child.nodeType === Node.TEXT_NODE) continue;
    if (child.nodeType !== Node.ELEMENT_NODE) {
      child.remove();
      continue;
    }
    const el = child as Element;
    const tag = el.tagName.toUpperCase();
    if (!KEEP.has(tag)) {
      if (DROP_WHOLE.test(tag)) el.remove();
      else {
        clean(el, imgAllowed);
        el.replaceWith(...el.childNodes);
      }
      continue;
    }
    const allowed = ATTRS[tag] ?? [];
    for (const attr of [...el.attributes]) if (!allowed.includes(attr.name)) el.removeAttribute(attr.name);
    if (tag === 'A') {
      const href = el.getAttribute('href') ?? '';
      if (!/^(https?:|mailto:)/i.test(href.trim())) el.removeAttribute('href');
      el.setAttribute('rel', 'nofollow noopener noreferrer');
      el.setAttribute('target', '_blank');
    }
    if (tag === 'IMG') {
      const src = (el.getAttribute('src') ?? '').trim();
      if (!/^https?:/i.test(src)) {
        el.remove();
        continue;
      }
      if (!imgAllowed(src)) {
        el.replaceWith(el.getAttribute('alt') ?? '');
        continue;
      }
    }
    clean(el, imgAllowed);
  }
}

export function cleanHtml(html: string, imgAllowed: ImgAllowed = () => true): string {
  if (!html) return '';
  const body = new DOMParser().parseFromString(html, 'text/html').body;
  clean(body, imgAllowed);
  return body.innerHTML;
}
