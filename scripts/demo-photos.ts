// Makes the demo's photographs (demo/media/*.jpg, the two short clips
// demo/media/*.mp4) and their credits (demo/ATTRIBUTION.md) from openly
// licensed photographs that Debian packages ship. Nothing is downloaded at
// run time: the files are committed; this script is how they were made and
// how to make them again.
//
// 1. Fetch and unpack the packages (no install needed), each into a folder of
//    its own name:
//      mkdir -p /tmp/demo-pkgs && cd /tmp/demo-pkgs
//      apt-get update
//      apt-get download python3-skimage lomiri-wallpapers-16.04 lomiri-wallpapers-20.04 \
//        plasma-workspace-wallpapers mate-backgrounds tuxpaint-stamps-default
//      for f in *.deb; do d=x/${f%%_*}; mkdir -p "$d"; dpkg -x "$f" "$d"; done
// 2. Run:  npx tsx scripts/demo-photos.ts /tmp/demo-pkgs/x
//    (the clips need ffmpeg on the PATH; without it they are left as they are)
//
// Photographs are resized (longest side ≤ 1200 px; EXIF orientation applied,
// metadata stripped) into JPEG q 78; products are the Tux Paint cut-outs on
// a plain backdrop, the studio shots composed from the placements of
// src/demo/demo-scenes.ts (which also give the hotspots). Avatars are crops of
// the animal and flower photographs, or initials drawn in SVG.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format } from 'prettier';
import sharp, { type OverlayOptions } from 'sharp';
import { DEMO_PRODUCTS, DEMO_SCENES, productFile } from '../src/demo/demo-scenes.js';
import { DEMO_AUTHORS } from '../src/demo/demo-authors.js';

const OUT = fileURLToPath(new URL('../demo/media/', import.meta.url));
const ATTRIBUTION = fileURLToPath(new URL('../demo/ATTRIBUTION.md', import.meta.url));
const LONGEST = 1200;
const QUALITY = 78;

interface Source {
  pkg: string;
  path: string;
  author: string;
  licence: string;
  link: string;
}

const SKIMAGE = 'usr/lib/python3/dist-packages/skimage/data';
const LOMIRI = 'usr/share/backgrounds';
const PLASMA = (name: string, file: string) => `usr/share/wallpapers/${name}/contents/images/${file}`;
const MATE = 'usr/share/backgrounds/mate/nature';
const STAMPS = 'usr/share/tuxpaint/stamps';
const SKIMAGE_LINK = 'https://github.com/scikit-image/scikit-image (skimage/data/_fetchers.py)';
const LOMIRI_LINK = 'https://gitlab.com/ubports/development/core/lomiri-wallpapers';
const PLASMA_LINK = 'https://invent.kde.org/plasma/plasma-workspace-wallpapers';
const MATE_LINK = 'https://github.com/mate-desktop/mate-backgrounds';
const TUXPAINT_LINK = 'http://sourceforge.net/projects/tuxpaint';

const skimage = (file: string, author: string, licence: string): Source => ({
  pkg: 'python3-skimage',
  path: `${SKIMAGE}/${file}`,
  author,
  licence,
  link: SKIMAGE_LINK,
});
const lomiri = (release: '16.04' | '20.04', file: string, author: string, licence: string): Source => ({
  pkg: `lomiri-wallpapers-${release}`,
  path: `${LOMIRI}/${file}`,
  author,
  licence,
  link: LOMIRI_LINK,
});
const plasma = (name: string, file: string, author: string): Source => ({
  pkg: 'plasma-workspace-wallpapers',
  path: PLASMA(name, file),
  author,
  licence: 'LGPL-3.0 (metadata.json); the package: GPL-2+',
  link: PLASMA_LINK,
});
const mate = (file: string, author: string): Source => ({
  pkg: 'mate-backgrounds',
  path: `${MATE}/${file}`,
  author,
  licence: 'GPL-2+',
  link: MATE_LINK,
});
const stamp = (path: string): Source => ({
  pkg: 'tuxpaint-stamps-default',
  path: `${STAMPS}/${path}`,
  author: 'Bill Kendrick and the Tux Paint contributors',
  licence: 'GPL-2',
  link: TUXPAINT_LINK,
});

export const SOURCES: Record<string, Source> = {
  astronaut: skimage('astronaut.png', 'NASA (photograph of Eileen Collins)', 'Public domain'),
  chelsea: skimage('chelsea.png', 'Stefan van der Walt', 'CC0-1.0'),
  coffee: skimage('coffee.png', 'Rachel Michetti (courtesy of Pikolo Espresso Bar)', 'CC0-1.0'),
  rocket: skimage('rocket.jpg', 'SpaceX (launch of DSCOVR on Falcon 9)', 'Public domain (CC0)'),
  camera: skimage('camera.png', 'Lav Varshney', 'CC0-1.0'),
  hubble: skimage('hubble_deep_field.jpg', 'NASA (Hubble eXtreme Deep Field)', 'Public domain'),
  aitzgorri: lomiri('16.04', 'aitzgorri_by_Aitzol_Berasategi.jpg', 'Aitzol Berasategi', 'CC-BY-4.0'),
  picos: lomiri('16.04', 'picosdeeuropa_by_Aitzol_Berasategi.jpg', 'Aitzol Berasategi', 'CC-BY-4.0'),
  life: lomiri('16.04', 'life_by_Aitzol_Berasategi.jpg', 'Aitzol Berasategi', 'CC-BY-4.0'),
  sunset: lomiri('16.04', 'sunset_by_Aitzol_Berasategi.jpg', 'Aitzol Berasategi', 'CC-BY-4.0'),
  friends: lomiri('16.04', 'friends_by_Aitzol_Berasategi.jpg', 'Aitzol Berasategi', 'CC-BY-4.0'),
  bridge: lomiri('16.04', 'Bridge_by_Sander_Klootwijk.jpg', 'Sander Klootwijk', 'CC-BY-SA-4.0'),
  dragonfly: lomiri('16.04', 'Dragonfly_by_Bolly.jpg', '"Bolly"', 'CC-BY-SA-4.0'),
  seeding: lomiri('16.04', 'seeding_by_Clements_Engelhardt.jpg', 'Clemens Engelhardt', 'CC0-1.0'),
  fig: lomiri('16.04', 'Picture_0B_by_freespace.jpg', 'Trevor "Freespace"', 'CC-BY-4.0'),
  brushes: lomiri('16.04', 'Picture_1A_by_freespace.jpg', 'Trevor "Freespace"', 'CC-BY-4.0'),
  wine: lomiri('16.04', 'Wine_by_Jakkub_Mede.jpg', 'Jakub Mede', 'CC-BY-4.0'),
  kleiber: lomiri('20.04', 'Kleiber_by_Lukas_Baubkus.jpg', 'Lukas Baubkus', 'CC-BY-SA-3.0'),
  infiniteSea: lomiri('20.04', 'Infinite-Sea_by_Aury88.jpg', 'Aury88', 'CC-BY-SA-3.0'),
  path: plasma('Path', '2560x1600.jpg', 'Risto Saukonpää'),
  summer1am: plasma('summer_1am', '2560x1600.jpg', 'Risto Saukonpää'),
  darkestHour: plasma('DarkestHour', '2560x1600.jpg', 'Risto Saukonpää'),
  kite: plasma('Kite', '2560x1600.jpg', 'Risto Saukonpää'),
  coldRipple: plasma('ColdRipple', '2560x1600.jpg', 'Risto Saukonpää'),
  eveningGlow: plasma('EveningGlow', '2560x1600.jpg', 'Ian Hex'),
  byTheWater: plasma('BytheWater', '2560x1600.jpg', 'Maciej Wiklo'),
  fallenLeaf: plasma('FallenLeaf', '2560x1600.jpg', 'Martin Klapetek'),
  grey: plasma('Grey', '2560x1600.jpg', 'Sigi Sagi'),
  cups: plasma('ColorfulCups', '2560x1600.jpg', 'Dmitri Popov'),
  ladybird: mate('LadyBird.jpg', 'Charles Barbin'),
  yellowFlower: mate('YellowFlower.jpg', 'Charles Barbin'),
  garden: mate('Garden.jpg', 'Charles Barbin'),
  dune: mate('Dune.jpg', 'Marco Cogoni, Hylke Bons'),
  storm: mate('Storm.jpg', 'Sergey Nazarov'),
  rainDrops: mate('RainDrops.jpg', '"blackcombwhistler07"'),
  guitar_classical: stamp('hobbies/music/string/guitar_classical.png'),
  guitar_electric: stamp('hobbies/music/string/guitar_electric.png'),
  guitar_electric_bass: stamp('hobbies/music/string/guitar_electric_bass.png'),
  guitar2: stamp('hobbies/music/string/guitar2.png'),
  cello: stamp('hobbies/music/string/cello.png'),
  trumpet: stamp('hobbies/music/brass/trumpet.png'),
  cymbal_crash: stamp('hobbies/music/percussion/cymbal_crash.png'),
  drum_tomtom_floor: stamp('hobbies/music/percussion/drum_tomtom_floor.png'),
  binoculars: stamp('hobbies/binoculars.png'),
};

/** A photograph resized as it is, or a part of it (`crop`: fractions of its width and height). */
interface Photo {
  file: string;
  source: keyof typeof SOURCES;
  crop?: { left: number; top: number; width: number; height: number };
  longest?: number;
}

const PHOTOS: Photo[] = [
  // the brand: a music shop's own pictures beside the studio shots
  { file: 'brand-varnish-day.jpg', source: 'brushes' },
  { file: 'brand-listening-corner.jpg', source: 'wine' },
  // the event: a lakeside night-sky festival
  { file: 'event-launch.jpg', source: 'rocket' },
  { file: 'event-pioneers-hall.jpg', source: 'astronaut' },
  { file: 'event-deep-field.jpg', source: 'hubble' },
  { file: 'event-workshop.jpg', source: 'camera' },
  { file: 'event-lake-1am.jpg', source: 'summer1am' },
  { file: 'event-blue-hour.jpg', source: 'darkestHour' },
  { file: 'event-evening-glow.jpg', source: 'eveningGlow' },
  { file: 'event-boats.jpg', source: 'byTheWater' },
  { file: 'event-kites.jpg', source: 'kite' },
  { file: 'event-storm.jpg', source: 'storm' },
  { file: 'event-sunset-ridge.jpg', source: 'sunset' },
  { file: 'event-milky-way.jpg', source: 'infiniteSea' },
  // the community: walks, gardens, pets and coffee
  { file: 'community-aitzgorri.jpg', source: 'aitzgorri' },
  { file: 'community-picos.jpg', source: 'picos' },
  { file: 'community-waterfall.jpg', source: 'life' },
  { file: 'community-bridge.jpg', source: 'bridge' },
  { file: 'community-dandelions.jpg', source: 'seeding' },
  { file: 'community-dragonfly.jpg', source: 'dragonfly' },
  { file: 'community-nuthatch.jpg', source: 'kleiber' },
  { file: 'community-window-dogs.jpg', source: 'friends' },
  { file: 'community-chelsea.jpg', source: 'chelsea' },
  { file: 'community-espresso.jpg', source: 'coffee' },
  { file: 'community-fig.jpg', source: 'fig' },
  { file: 'community-forest-path.jpg', source: 'path' },
  { file: 'community-maple-leaf.jpg', source: 'fallenLeaf' },
  { file: 'community-jetty.jpg', source: 'grey' },
  { file: 'community-ripples.jpg', source: 'coldRipple' },
  { file: 'community-cups.jpg', source: 'cups' },
  { file: 'community-ladybird.jpg', source: 'ladybird' },
  { file: 'community-marigold.jpg', source: 'garden' },
  { file: 'community-sunflower.jpg', source: 'yellowFlower' },
  { file: 'community-dune.jpg', source: 'dune' },
  { file: 'community-raindrops.jpg', source: 'rainDrops' },
];

/** Avatars cut from the photographs (the rest are initials, DEMO_AUTHORS). */
const AVATAR_CROPS: Record<string, Photo> = {
  'avatar-chelsea.jpg': { file: '', source: 'chelsea', crop: { left: 0.2, top: 0.02, width: 0.6, height: 0.9 } },
  'avatar-dogs.jpg': { file: '', source: 'friends', crop: { left: 0.28, top: 0.15, width: 0.5, height: 0.22 } },
  'avatar-ladybird.jpg': { file: '', source: 'ladybird', crop: { left: 0.57, top: 0.35, width: 0.22, height: 0.33 } },
  'avatar-nuthatch.jpg': { file: '', source: 'kleiber', crop: { left: 0.34, top: 0.4, width: 0.22, height: 0.33 } },
  'avatar-marigold.jpg': { file: '', source: 'garden', crop: { left: 0.42, top: 0.15, width: 0.4, height: 0.6 } },
  'avatar-espresso.jpg': { file: '', source: 'coffee', crop: { left: 0.25, top: 0.0, width: 0.5, height: 0.75 } },
};

/** Short clips: a slow zoom over a photograph (its licence carries over). */
const CLIPS = [
  { file: 'clip-launch.mp4', from: 'event-launch.jpg', source: 'rocket', size: '640x428' },
  { file: 'clip-waterfall.mp4', from: 'community-waterfall.jpg', source: 'life', size: '640x428' },
  { file: 'clip-guitar-wall.mp4', from: 'brand-guitar-wall.jpg', source: 'guitar_classical', size: '640x428' },
] as const;

const credits: { file: string; sources: (keyof typeof SOURCES)[]; note: string }[] = [];

async function main() {
  const root = process.argv[2];
  if (!root) throw new Error('usage: npx tsx scripts/demo-photos.ts <folder of the unpacked packages>');
  const input = (key: string) => {
    const s = SOURCES[key]!;
    const file = join(root, s.pkg, s.path);
    if (!existsSync(file)) throw new Error(`${file} is missing: unpack ${s.pkg} into ${join(root, s.pkg)}`);
    return file;
  };
  mkdirSync(OUT, { recursive: true });
  const versions = Object.fromEntries(
    [...new Set(Object.values(SOURCES).map((s) => s.pkg))].map((pkg) => [pkg, packageVersion(root, pkg)]),
  );

  for (const p of PHOTOS) {
    await sharp(input(p.source))
      .rotate()
      .resize(p.longest ?? LONGEST, p.longest ?? LONGEST, { fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: QUALITY, mozjpeg: true })
      .toFile(join(OUT, p.file));
    credits.push({ file: p.file, sources: [p.source], note: 'resized' });
  }

  for (const [file, p] of Object.entries(AVATAR_CROPS)) {
    const img = sharp(input(p.source)).rotate();
    const { width = 0, height = 0 } = await sharp(input(p.source)).rotate().metadata();
    const c = p.crop!;
    const side = Math.round(Math.min(c.width * width, c.height * height));
    await img
      .extract({ left: Math.round(c.left * width), top: Math.round(c.top * height), width: side, height: side })
      .resize(160, 160)
      .jpeg({ quality: 80, mozjpeg: true })
      .toFile(join(OUT, file));
    credits.push({ file, sources: [p.source], note: 'a square crop, 160 px' });
  }

  for (const a of DEMO_AUTHORS) {
    if (a.avatar.endsWith('.svg')) {
      writeFileSync(join(OUT, a.avatar), initials(a.name, a.colors));
      credits.push({ file: a.avatar, sources: [], note: 'drawn by this script (initials); Wallery’s own, MIT' });
    }
  }

  for (const p of DEMO_PRODUCTS) {
    const cut = await trimmed(input(p.photo));
    const meta = await sharp(cut).metadata();
    const box = 600;
    const scale = Math.min((box * 0.8) / meta.width!, (box * 0.8) / meta.height!, 2);
    const w = Math.round(meta.width! * scale);
    const h = Math.round(meta.height! * scale);
    const piece = await sharp(cut).resize(w, h).png().toBuffer();
    await sharp(await backdrop(box, box, ['#ffffff', '#eeeeec']))
      .composite([
        { input: await shadow(w, box), left: Math.round((box - w) / 2), top: Math.round(box / 2 + h / 2 - 14) },
        { input: piece, left: Math.round((box - w) / 2), top: Math.round((box - h) / 2) },
      ])
      .jpeg({ quality: 82, mozjpeg: true })
      .toFile(join(OUT, productFile(p.id)));
    credits.push({ file: productFile(p.id), sources: [p.photo], note: 'the cut-out on a plain backdrop' });
  }

  for (const scene of DEMO_SCENES) {
    const layers: OverlayOptions[] = [];
    const used: string[] = [];
    for (const item of scene.items) {
      const product = DEMO_PRODUCTS.find((p) => p.id === item.productId)!;
      used.push(product.photo);
      const cut = await trimmed(input(product.photo));
      const meta = await sharp(cut).metadata();
      const h = Math.round((item.height / 100) * scene.height);
      const w = Math.round((meta.width! * h) / meta.height!);
      const cx = (item.left / 100) * scene.width;
      const cy = (item.top / 100) * scene.height;
      layers.push({
        input: await shadow(w, scene.width),
        left: Math.round(cx - w / 2),
        top: Math.round(cy + h / 2 - 14),
      });
      layers.push({
        input: await sharp(cut).resize(w, h, { kernel: 'lanczos3' }).png().toBuffer(),
        left: Math.round(cx - w / 2),
        top: Math.round(cy - h / 2),
      });
    }
    await sharp(await backdrop(scene.width, scene.height, scene.backdrop))
      .composite(layers)
      .jpeg({ quality: QUALITY, mozjpeg: true })
      .toFile(join(OUT, scene.file));
    credits.push({ file: scene.file, sources: [...new Set(used)], note: 'a studio shot composed of the cut-outs' });
  }

  if (hasFfmpeg()) {
    for (const clip of CLIPS) {
      // 6 s at 25 fps, a slow push-in, H.264 baseline so every browser plays it
      execFileSync('ffmpeg', [
        ...['-y', '-loglevel', 'error', '-loop', '1', '-i', join(OUT, clip.from)],
        ...['-vf', `scale=1280:-2,zoompan=z='min(zoom+0.0012,1.18)':d=150:s=${clip.size}:fps=25`],
        ...['-t', '6', '-c:v', 'libx264', '-profile:v', 'baseline', '-pix_fmt', 'yuv420p', '-crf', '30'],
        ...['-movflags', '+faststart', '-an', join(OUT, clip.file)],
      ]);
    }
  }
  for (const clip of CLIPS) credits.push({ file: clip.file, sources: [clip.source], note: 'a 6 s slow zoom (ffmpeg)' });

  // formatted as the project's `prettier --check` wants them
  writeFileSync(ATTRIBUTION, await format(attribution(versions), { parser: 'markdown', printWidth: 120 }));
  writeFileSync(
    join(OUT, 'about.html'),
    await format(page('About this demo post', ABOUT), { parser: 'html', printWidth: 120 }),
  );
  writeFileSync(
    join(OUT, 'shop.html'),
    await format(page('Tonewood Music Co. — demo shop', shop()), { parser: 'html', printWidth: 120 }),
  );
}

// The pages the demo's links open: on a real wall a post links to the post
// on its network, a product to its shop; the demo's stay on this instance.
const ABOUT = `<h1>A post of Wallery’s demo</h1>
<p>This post is part of the demo data set that <code>npm start</code> loads into an empty database. On a real wall,
this link opens the post on its network (Instagram, Mastodon, Bluesky, YouTube, a blog…).</p>
<p>The people, shops and festival of the demo are made up. The photographs are real and openly licensed: their
authors and licences are listed in <code>demo/ATTRIBUTION.md</code> of Wallery’s source.</p>`;

function shop(): string {
  const rows = DEMO_PRODUCTS.map(
    (p) => `<li id="${p.sku}"><strong>${p.name}</strong> — € ${p.price.toFixed(2)} <small>(${p.sku})</small></li>`,
  ).join('\n');
  return `<h1>Tonewood Music Co.</h1>
<p>A made-up music shop of Wallery’s demo. On a real wall, “Shop the look” and a tagged product open the shop’s own
pages; here they open this list.</p>
<ul>
${rows}
</ul>`;
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#222}li{margin:.4rem 0}:target{background:#fff3c4}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

/** A cut-out with its transparent margin trimmed. */
async function trimmed(file: string): Promise<Buffer> {
  return sharp(file).ensureAlpha().trim({ threshold: 1 }).png().toBuffer();
}

/** A plain studio backdrop: a wall colour fading into a floor colour. */
async function backdrop(width: number, height: number, [top, bottom]: readonly [string, string]): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
<defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${top}"/><stop offset="0.72" stop-color="${top}"/><stop offset="1" stop-color="${bottom}"/></linearGradient>
<radialGradient id="l" cx="0.5" cy="0.35" r="0.75"><stop offset="0" stop-color="#ffffff" stop-opacity="0.18"/><stop offset="1" stop-color="#000000" stop-opacity="0.12"/></radialGradient></defs>
<rect width="100%" height="100%" fill="url(#g)"/><rect width="100%" height="100%" fill="url(#l)"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** A soft contact shadow under a product `w` wide (clipped to the picture's width). */
async function shadow(w: number, max: number): Promise<Buffer> {
  const width = Math.max(8, Math.min(w, max));
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="28"><ellipse cx="${width / 2}" cy="14" rx="${width * 0.42}" ry="8" fill="#000" fill-opacity="0.28"/></svg>`;
  return sharp(Buffer.from(svg)).blur(4).png().toBuffer();
}

function initials(name: string, [a, b]: readonly [string, string]): string {
  const letters = name
    .split(/\s+/)
    .map((w) => w[0])
    .join('')
    .slice(0, 2)
    .toUpperCase();
  return `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="160" viewBox="0 0 160 160">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${a}"/><stop offset="1" stop-color="${b}"/></linearGradient></defs>
<rect width="160" height="160" fill="url(#g)"/>
<text x="80" y="99" font-family="DejaVu Sans, sans-serif" font-size="58" font-weight="700" fill="#ffffff" text-anchor="middle">${letters}</text>
</svg>
`;
}

function packageVersion(root: string, pkg: string): string {
  // dpkg -x leaves no control file: the version is the changelog's first line
  const changelog = join(root, pkg, 'usr/share/doc', pkg, 'changelog.Debian.gz');
  if (!existsSync(changelog)) return 'unknown';
  const first = execFileSync('zcat', [changelog]).toString().split('\n')[0] ?? '';
  return /\(([^)]+)\)/.exec(first)?.[1] ?? 'unknown';
}

function hasFfmpeg(): boolean {
  try {
    execFileSync('ffmpeg', ['-version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function attribution(versions: Record<string, string>): string {
  const lines = [
    '# Demo media: attribution',
    '',
    'The pictures and clips of the demo data set (`demo/media/`, served by Wallery at `/demo-media/`) are made',
    'by `scripts/demo-photos.ts` from openly licensed photographs shipped in Debian packages; nothing is',
    'downloaded at run time. Each file below names its source package and version, the original file in that',
    'package, its author and licence as the package’s copyright file (or, where it says so, the file’s own',
    'metadata) gives them, and a link. Derived files carry the licence of their source.',
    '',
    'The SVG landscapes `scene-*.svg`, `avatar-1…4.svg` and `product-501.svg`, `product-502.svg` are',
    'drawn by `scripts/make-demo-media.ts` (Wallery’s own, MIT); the browser tests use them.',
    '',
    '| File | Source package | Original file | Author | Licence | Link | Made |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const c of credits) {
    if (c.sources.length === 0) {
      lines.push(`| ${c.file} | — | — | Wallery | MIT | — | ${c.note} |`);
      continue;
    }
    for (const key of c.sources) {
      const s = SOURCES[key]!;
      const row = [c.file, `${s.pkg} ${versions[s.pkg]}`, `/${s.path}`, s.author, s.licence, s.link, c.note];
      lines.push(`| ${row.map((v) => v.replaceAll('|', '\\|')).join(' | ')} |`);
    }
  }
  lines.push(
    '',
    'Licences: CC0-1.0 and public domain need no credit (given all the same); CC-BY-4.0, CC-BY-SA-3.0/4.0 need the',
    'credit above (and, for -SA, derived files under the same licence); GPL-2(+) and LGPL-3.0 files are offered',
    'with their source: the original files are in the named Debian packages (`apt-get source` gives their sources).',
    '',
  );
  return lines.join('\n');
}

await main();
// the list is the script's; read back so a run can be checked by eye
process.stdout.write(`${readFileSync(ATTRIBUTION, 'utf8').split('\n').length} lines of attribution\n`);
