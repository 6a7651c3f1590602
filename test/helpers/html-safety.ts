// What a browser would run in a served value, read with parse5 (the WHATWG
// HTML parser browsers implement) in the places a widget may put it: as a
// div's content, inside a table cell, and followed by more markup. Written
// from contract §7 alone, not from the code under test.
import { defaultTreeAdapter, html as HTML, parseFragment, type DefaultTreeAdapterTypes as T } from 'parse5';

/** The elements contract §7 lets post content carry. */
export const CONTRACT_TAGS = new Set([
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

/** Attributes whose value a browser loads or follows as a URL. */
const URL_ATTRIBUTES = new Set([
  'href',
  'src',
  'srcset',
  'action',
  'formaction',
  'data',
  'background',
  'poster',
  'cite',
  'codebase',
  'dynsrc',
  'lowsrc',
  'longdesc',
  'ping',
  'xlink:href',
]);

const SENTINEL = '<i id="wallery-sentinel"></i>';

const CONTEXTS: [string, () => T.Element][] = [
  ['div', () => defaultTreeAdapter.createElement('div', HTML.NS.HTML, [])],
  ['td', () => defaultTreeAdapter.createElement('td', HTML.NS.HTML, [])],
];

export const isHttpUrl = (value: string): boolean => {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};

function walk(node: T.ParentNode, visit: (n: T.ChildNode) => void): void {
  for (const child of node.childNodes) {
    visit(child);
    if ('childNodes' in child) walk(child, visit);
    if (child.nodeName === 'template') walk((child as T.Template).content, visit);
  }
}

/** Why `html`, as HTML, could run something or reach outside itself; [] when it cannot. `allowed`: elements it may hold. */
function problemsAs(html: string, allowed: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  for (const [name, context] of CONTEXTS) {
    for (const [how, source] of [
      ['alone', html],
      ['followed by markup', html + SENTINEL],
    ] as const) {
      const where = `${how} in a ${name}`;
      const fragment = parseFragment(context(), source, {});
      let sentinels = 0;
      walk(fragment, (node) => {
        if (node.nodeName === '#comment') problems.push(`${where}: a comment`);
        if (!('tagName' in node)) return;
        const isSentinel = node.tagName === 'i' && node.attrs.some((a) => a.value === 'wallery-sentinel');
        if (isSentinel) sentinels++;
        else if (!allowed.has(node.tagName) || node.namespaceURI !== HTML.NS.HTML)
          problems.push(`${where}: element <${node.tagName}>`);
        for (const attr of node.attrs) {
          const attrName = attr.prefix ? `${attr.prefix}:${attr.name}` : attr.name;
          if (/^on/i.test(attr.name)) problems.push(`${where}: event handler ${attrName}`);
          if (attr.name === 'style') problems.push(`${where}: style attribute`);
          if (attr.name === 'srcdoc') problems.push(`${where}: srcdoc`);
          if (URL_ATTRIBUTES.has(attrName) && !isHttpUrl(attr.value))
            problems.push(`${where}: ${attrName}=${JSON.stringify(attr.value)} is not an http(s) URL`);
        }
      });
      // text after the value must still be parsed as markup of its own
      if (how === 'followed by markup' && sentinels !== 1) problems.push(`${where}: swallows what follows`);
    }
  }
  return [...new Set(problems)];
}

/** Problems of served post content: only the contract's elements, no handlers, styles, comments or non-http(s) URLs. */
export const contentProblems = (html: string): string[] => problemsAs(html, CONTRACT_TAGS);

/** Problems of a served plain-text value: as HTML it must be nothing but text. */
export const textProblems = (text: string): string[] => problemsAs(text, new Set());

/** Problems of a served URL: an absolute http(s) URL in WHATWG form, nothing that can end an attribute value. */
export function urlProblems(url: string): string[] {
  if (url === '') return [];
  if (!isHttpUrl(url)) return [`${JSON.stringify(url)} is not an absolute http(s) URL`];
  const problems: string[] = [];
  if (new URL(url).href !== url) problems.push(`${JSON.stringify(url)} is not in its normalized form`);
  if (/["<>\s`]/.test(url)) problems.push(`${JSON.stringify(url)} holds a quote, angle bracket or blank`);
  return problems;
}
