// npm run screenshots (not a test file: vitest runs *.test.ts): the three demo walls as `npm start` serves them (the
// real CLI on a fresh SQLite file), in every layout × light/dark × 375, 768,
// 1280 and 1920 px, and the event screen on a 3840 × 2160 and a portrait
// 1080 × 1920 screen, written to docs/screenshots/demo/ as WebP (a third of
// a PNG's bytes; these are documentation, made on demand, not by `npm test`).
// Each page is measured as test/web/layouts.test.ts measures its own walls —
// no card more than 25 % empty, nothing past the viewport's edge, axe clean
// at 375 px — and the run fails, naming each problem, when one is found.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { DEMO_WALLS } from '../../src/demo/demo-data.js';
import { EMBED_LAYOUTS } from '../../src/domain/lists.js';
import { startCli } from '../helpers/cli.js';
import { launchChromium, seriousAxeFindings } from './browser.js';
import { LOOK_EVENT_ONLY, LOOK_THEMES, LOOK_VIEWPORTS, lookProblems, settled } from './look.js';

const OUT = new URL('../../docs/screenshots/demo/', import.meta.url).pathname;

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const dir = mkdtempSync(join(tmpdir(), 'wallery-screenshots-'));
  const env = { DATABASE_URL: join(dir, 'demo.db'), PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
  const started = await startCli(['start'], env, /walls\/103\?key=\S+\n/);
  const browser = await launchChromium();
  const problems: string[] = [];
  let shots = 0;
  try {
    const pages = new Map<number, string>();
    for (const m of started.output().matchAll(/^ {4}(http\S+\/walls\/(\d+)\?key=\S+)$/gm))
      pages.set(Number(m[2]), m[1]!);
    const runs: { layout: string; viewport: { readonly width: number; readonly height: number } }[] = [];
    for (const viewport of LOOK_VIEWPORTS) for (const layout of EMBED_LAYOUTS) runs.push({ layout, viewport });
    for (const viewport of LOOK_EVENT_ONLY) runs.push({ layout: 'event', viewport });
    for (const { layout, viewport } of runs) {
      const context = await browser.newContext({ viewport, reducedMotion: 'reduce' });
      const page = await context.newPage();
      // tsx compiles with esbuild's keepNames: the measures it sends to the page call __name
      await page.addInitScript('globalThis.__name = (f) => f');
      for (const wall of DEMO_WALLS)
        for (const theme of LOOK_THEMES) {
          const where = `${wall.kind} ${layout} ${theme} ${viewport.width}×${viewport.height}`;
          await page.goto(`${pages.get(wall.id)}&layout=${layout}&theme=${theme}`);
          await settled(page);
          problems.push(...(await lookProblems(page, where)));
          if (viewport.width === 375) problems.push(...(await seriousAxeFindings(page, where)));
          const size = viewport.width === 1080 ? '1080x1920' : String(viewport.width);
          const png = await page.screenshot();
          await sharp(png).webp({ quality: 78 }).toFile(`${OUT}${wall.kind}-${layout}-${theme}-${size}.webp`);
          shots++;
        }
      await context.close();
    }
  } finally {
    await browser.close();
    started.child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
  console.info(`${shots} screenshots in docs/screenshots/demo/`);
  if (problems.length > 0) {
    console.error(problems.join('\n'));
    process.exitCode = 1;
  }
}

await main();
