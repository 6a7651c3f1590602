// The ordinary photos the image check's false holds are measured on (issue
// 32): openly licensed photographs shipped by four Debian packages, fetched
// with `apt-get download` (no install, no root) and unpacked with `dpkg -x`
// into .cache/photo-set/ (git-ignored) the first time they are needed.
// Alone: `npx tsx bench/photo-set.ts` prints the set.
//
// How the photos were chosen (a person looked at every candidate on a
// contact sheet): every PNG stamp of tuxpaint-stamps-default over 20 KB —
// photographs of animals, food, plants, objects, vehicles, people, cut out on
// a transparent background — except the drawings and 3-D renders (any
// `cartoon` folder, and the list below); one picture of each photographic
// wallpaper of plasma-workspace-wallpapers (the rest are abstract
// graphics); mate-backgrounds' `nature` folder (all photographs); and the
// everyday photographs of scikit-image's sample data. gnome-backgrounds and
// ukui-wallpapers were looked at too and hold no photographs.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from './process.js';

export const CACHE = join(ROOT, '.cache', 'photo-set');

/** The packages, pinned (Debian 12, bookworm), and the licence their copyright file gives the pictures used. */
export const PACKAGES = [
  {
    name: 'tuxpaint-stamps-default',
    version: '2022.06.04-1',
    licence: 'GPL-2 (debian/copyright)',
  },
  {
    name: 'plasma-workspace-wallpapers',
    version: '4:5.27.5-2',
    licence: 'GPL-2+ (debian/copyright)',
  },
  {
    name: 'mate-backgrounds',
    version: '1.26.0-1',
    licence: 'GPL-2+, per file (debian/copyright)',
  },
  {
    name: 'python3-skimage',
    version: '0.19.3-8',
    licence: 'CC0 or public domain, per picture (skimage/data/_fetchers.py)',
  },
] as const;

export type PhotoKind = 'animals' | 'food' | 'plants' | 'objects' | 'vehicles' | 'people' | 'places' | 'landscapes';

export interface Photo {
  /** path under the cache (package/…) */
  name: string;
  file: string;
  kind: PhotoKind;
  pkg: string;
}

/** tuxpaint stamps outside a `cartoon` folder that are drawings or renders all the same (seen on the contact sheet). */
const TUX_DRAWINGS = new Set(
  [
    'animals/fish/bluegroper.png',
    'animals/fish/butterflyfish.png',
    'animals/fish/seahorse.png',
    'animals/insects/bee.png',
    'animals/insects/fly.png',
    'animals/mammals/hedgehog.png',
    'clothes/button.png',
    'clothes/hats/feathered_hat.png',
    'clothes/hats/sombrero.png',
    'food/pizza.png',
    'naturalforces/lightningbolt.png',
    'people/body_parts/eye.png',
    'seasonal/christmas/Santa.png',
    'seasonal/easter/bunny-egg.png',
    'seasonal/easter/bunny.png',
    'seasonal/easter/butterfly.png',
    'seasonal/easter/chick-hatched.png',
    'seasonal/easter/chick.png',
    'seasonal/easter/daffodil.png',
    'seasonal/halloween/jackolantern_mean.png',
    'seasonal/newyears/fireworks.png',
    'seasonal/newyears/fireworks2.png',
    'space/planets/0_sun.png',
    'space/planets/2_venus.png',
    'space/planets/5_jupiter.png',
    'space/planets/6_saturn.png',
    'space/planets/7_uranus.png',
    'space/planets/8_neptune.png',
    'space/voyager2.png',
    'sports/basketball.png',
    'sports/soccer.png',
    'town/roadsigns/dead_end_sign.png',
    'town/roadsigns/railroad_crossing.png',
    'town/roadsigns/toilets.png',
    'town/usps_mailbox.png',
    'vehicles/flight/balloon360.png',
    'vehicles/flight/planes/747.png',
    'vehicles/garbagetruck.png',
    'vehicles/masstransit/green_korean_bus.png',
    'vehicles/race/indycar.png',
    'vehicles/ship/chineseJunk.png',
    'vehicles/ship/walnutBoat.png',
  ].map((p) => `usr/share/tuxpaint/stamps/${p}`),
);

/** The photographic plasma wallpapers (the others are abstract graphics or drawings). */
const PLASMA_PHOTOS = [
  'BytheWater',
  'ColdRipple',
  'DarkestHour',
  'EveningGlow',
  'FallenLeaf',
  'Kite',
  'MilkyWay',
  'OneStandsOut',
  'Path',
  'Volna',
  'summer_1am',
];

/** scikit-image's everyday photographs (not its micrographs, scans, textures of text or test patterns). */
const SKIMAGE_PHOTOS: [string, PhotoKind][] = [
  ['astronaut.png', 'people'],
  ['camera.png', 'people'],
  ['chelsea.png', 'animals'],
  ['coffee.png', 'food'],
  ['coins.png', 'objects'],
  ['brick.png', 'places'],
  ['rocket.jpg', 'vehicles'],
];

const TUX_KIND: Record<string, PhotoKind> = {
  animals: 'animals',
  food: 'food',
  plants: 'plants',
  people: 'people',
  military: 'people',
  vehicles: 'vehicles',
  town: 'places',
  naturalforces: 'landscapes',
};

function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile())
    .sort();
}

/** Downloads and unpacks the packages not in the cache yet. */
export function ensurePackages(log: (s: string) => void = () => undefined): void {
  mkdirSync(CACHE, { recursive: true });
  for (const pkg of PACKAGES) {
    const dir = join(CACHE, pkg.name);
    if (existsSync(join(dir, '.done'))) continue;
    log(`photo set: apt-get download ${pkg.name}=${pkg.version}…`);
    execFileSync('apt-get', ['download', `${pkg.name}=${pkg.version}`], { cwd: CACHE, stdio: 'ignore' });
    const deb = readdirSync(CACHE).find((f) => f.startsWith(`${pkg.name}_`) && f.endsWith('.deb'));
    if (!deb) throw new Error(`apt-get download ${pkg.name} left no .deb`);
    execFileSync('dpkg', ['-x', join(CACHE, deb), dir]);
    execFileSync('touch', [join(dir, '.done')]);
  }
}

const BIG_ENOUGH = 20 * 1024;

/** The photo set (downloaded first when missing). */
export function photoSet(log?: (s: string) => void): Photo[] {
  ensurePackages(log);
  const out: Photo[] = [];
  const seen = new Set<string>();
  const add = (pkg: string, file: string, kind: PhotoKind) => {
    // the same picture twice (a stamp in two folders) counts once
    const digest = createHash('sha256').update(readFileSync(file)).digest('hex');
    if (seen.has(digest)) return;
    seen.add(digest);
    out.push({ name: relative(CACHE, file), file, kind, pkg });
  };

  const tux = join(CACHE, 'tuxpaint-stamps-default');
  for (const file of files(join(tux, 'usr/share/tuxpaint/stamps'))) {
    const rel = relative(tux, file);
    if (!file.endsWith('.png') || statSync(file).size <= BIG_ENOUGH) continue;
    if (rel.split('/').includes('cartoon') || TUX_DRAWINGS.has(rel)) continue;
    const top = rel.split('/')[4]!;
    add('tuxpaint-stamps-default', file, TUX_KIND[top] ?? 'objects');
  }
  const plasma = join(CACHE, 'plasma-workspace-wallpapers/usr/share/wallpapers');
  for (const name of PLASMA_PHOTOS) {
    // the largest landscape-format picture of the wallpaper
    const images = files(join(plasma, name, 'contents/images'));
    const size = (f: string) => /(\d+)x(\d+)/.exec(f)?.slice(1).map(Number) ?? [0, 0];
    const best = images.filter((f) => size(f)[0]! >= size(f)[1]!).sort((a, b) => size(b)[0]! - size(a)[0]!)[0];
    if (best) add('plasma-workspace-wallpapers', best, 'landscapes');
  }
  for (const file of files(join(CACHE, 'mate-backgrounds/usr/share/backgrounds/mate/nature')))
    add('mate-backgrounds', file, 'landscapes');
  const skimage = join(CACHE, 'python3-skimage/usr/lib/python3/dist-packages/skimage/data');
  for (const [name, kind] of SKIMAGE_PHOTOS)
    if (existsSync(join(skimage, name))) add('python3-skimage', join(skimage, name), kind);
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const set = photoSet((s) => process.stderr.write(`${s}\n`));
  const kinds = new Map<string, number>();
  for (const p of set) kinds.set(p.kind, (kinds.get(p.kind) ?? 0) + 1);
  for (const p of set) console.log(`${p.kind}\t${p.name}`);
  console.log(`${set.length} photos: ${[...kinds].map(([k, n]) => `${k} ${n}`).join(', ')}`);
}
