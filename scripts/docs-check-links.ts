// Checks every link of the built documentation site (dist/site): VitePress
// fails the build on a link to a missing page but not on a missing anchor,
// nor on a link that leaves the site for somewhere that is not a public web
// address. This reads every built page and fails when:
//   - an internal link names a page that was not built;
//   - its #anchor is not an id on that page;
//   - a link leaves the site's base (a path of the instance, `../shared/…`,
//     a file of the repository), or names `shared/spec` at all.
// A link to a public site (http:, https:, mailto:) is not followed.
// `npm run docs:build` runs it after `vitepress build`; test/docs/links.test.ts
// proves it fails on a planted broken link and a planted broken anchor.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Parser } from 'htmlparser2';

export const SITE_DIR = fileURLToPath(new URL('../dist/site/', import.meta.url));
export const SITE_BASE = '/guide/';

interface Page {
  ids: Set<string>;
  links: string[];
}

function readPage(html: string): Page {
  const ids = new Set<string>();
  const links: string[] = [];
  const parser = new Parser({
    onopentag(name, attributes) {
      if (attributes.id) ids.add(attributes.id);
      if (name === 'a' && attributes.name) ids.add(attributes.name);
      if (name === 'a' && attributes.href !== undefined) links.push(attributes.href);
      if ((name === 'img' || name === 'source') && attributes.src) links.push(attributes.src);
    },
  });
  parser.write(html);
  parser.end();
  return { ids, links };
}

function htmlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return htmlFiles(path);
    return name.endsWith('.html') ? [path] : [];
  });
}

/** The built file a path under the base is served from (clean URLs: `/a/b` is `a/b.html`). */
function fileOf(dir: string, path: string): string | null {
  const candidates =
    path === '' || path.endsWith('/') ? [`${path}index.html`] : [`${path}.html`, path, `${path}/index.html`];
  for (const candidate of candidates) {
    const file = join(dir, decodeURIComponent(candidate));
    if (existsSync(file) && statSync(file).isFile()) return file;
  }
  return null;
}

const EXTERNAL = /^(https?:|mailto:)/i;

/** Every broken or outward link of the site built in `dir` for `base`, as `page: problem` lines. */
export function checkSite(dir: string, base = SITE_BASE): string[] {
  const problems: string[] = [];
  const pages = new Map<string, Page>();
  const page = (file: string) => {
    let found = pages.get(file);
    if (!found) {
      found = readPage(readFileSync(file, 'utf8'));
      pages.set(file, found);
    }
    return found;
  };
  const origin = 'http://site.invalid';
  for (const file of htmlFiles(dir)) {
    const name = relative(dir, file);
    const pageUrl = new URL(base + name.replace(/(^|\/)index\.html$/, '$1').replace(/\.html$/, ''), origin);
    for (const href of page(file).links) {
      if (/shared\/spec/.test(href)) {
        problems.push(`${name}: ${href} points outside the repository`);
        continue;
      }
      if (EXTERNAL.test(href)) continue;
      if (/^[a-z][a-z0-9+.-]*:/i.test(href)) {
        problems.push(`${name}: ${href} is neither a page of the site nor a public web address`);
        continue;
      }
      const url = new URL(href, pageUrl);
      if (url.origin !== origin || !url.pathname.startsWith(base)) {
        problems.push(`${name}: ${href} leaves the site (${url.pathname})`);
        continue;
      }
      const target = fileOf(dir, url.pathname.slice(base.length));
      if (target === null) {
        problems.push(`${name}: ${href} names no page of the site`);
        continue;
      }
      const anchor = decodeURIComponent(url.hash.slice(1));
      if (anchor !== '' && target.endsWith('.html') && !page(target).ids.has(anchor))
        problems.push(`${name}: ${href} names no anchor #${anchor} on ${relative(dir, target)}`);
    }
  }
  return problems;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const problems = checkSite(SITE_DIR);
  if (problems.length > 0) {
    console.error(`${problems.length} broken or outward link(s) in the documentation site:\n${problems.join('\n')}`);
    process.exit(1);
  }
  console.log(`links checked: every internal link and anchor of ${relative(process.cwd(), SITE_DIR)} resolves`);
}
