// The documentation site's link check (scripts/docs-check-links.ts, run by
// `npm run docs:build` after VitePress): proven here on a tiny built site with
// planted faults, since VitePress itself checks pages but not anchors.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkSite } from '../../scripts/docs-check-links.js';

const dir = mkdtempSync(join(tmpdir(), 'wallery-site-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const page = (body: string) => `<!doctype html><html><body>${body}</body></html>`;
function site(files: Record<string, string>): string {
  const root = mkdtempSync(join(dir, 'site-'));
  for (const [name, body] of Object.entries(files)) {
    mkdirSync(join(root, name, '..'), { recursive: true });
    writeFileSync(join(root, name), page(body));
  }
  return root;
}

const sound = {
  'index.html': '<a href="/guide/get-started/install">Install</a> <a href="./reference/cli#wallery-serve">serve</a>',
  'get-started/install.html':
    '<h2 id="run-it">Run it</h2><a href="../reference/cli.html#wallery-serve">cli</a> <a href="#run-it">here</a>' +
    ' <a href="https://example.org/">a public site</a> <img src="../screenshots/console-walls-1280.png">',
  'reference/cli.html': '<h2 id="wallery-serve">wallery serve</h2><a href="/guide/">home</a>',
  'screenshots/console-walls-1280.png': '',
};

describe('the documentation link check', () => {
  it('passes a site whose links and anchors all resolve', () => {
    expect(checkSite(site(sound), '/guide/')).toEqual([]);
  });

  it('fails on a planted broken link and a planted broken anchor', () => {
    const root = site({
      ...sound,
      'get-started/first-wall.html':
        '<a href="../guides/missing-page">gone</a> <a href="./install#no-such-heading">anchor</a>' +
        ' <a href="/guide/reference/cli#wallery-serv">typo</a>',
    });
    expect(checkSite(root, '/guide/')).toEqual([
      'get-started/first-wall.html: ../guides/missing-page names no page of the site',
      'get-started/first-wall.html: ./install#no-such-heading names no anchor #no-such-heading on get-started/install.html',
      'get-started/first-wall.html: /guide/reference/cli#wallery-serv names no anchor #wallery-serv on reference/cli.html',
    ]);
  });

  it('fails on a link that leaves the repository or the site', () => {
    const root = site({
      ...sound,
      'reference/api-v2.html':
        '<a href="../../../shared/spec/api-v2.md">spec</a> <a href="/console/">console</a>' +
        ' <a href="file:///etc/passwd">file</a>',
    });
    expect(checkSite(root, '/guide/')).toEqual([
      'reference/api-v2.html: ../../../shared/spec/api-v2.md points outside the repository',
      'reference/api-v2.html: /console/ leaves the site (/console/)',
      'reference/api-v2.html: file:///etc/passwd is neither a page of the site nor a public web address',
    ]);
  });

  it('finds no link to ../shared in any page source of docs/', () => {
    const sources = (folder: string): string[] =>
      readdirSync(folder).flatMap((name) => {
        const path = join(folder, name);
        if (statSync(path).isDirectory()) return name === 'screenshots' ? [] : sources(path);
        return name.endsWith('.md') ? [path] : [];
      });
    const outward = sources('docs').filter((file) => /\]\([^)]*shared\/spec/.test(readFileSync(file, 'utf8')));
    expect(outward).toEqual([]);
  });
});
