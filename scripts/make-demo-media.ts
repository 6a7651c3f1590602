// Writes the drawn test pictures of demo/media (*.svg): small landscapes,
// avatars and two product shots, which the browser tests' data files use
// (test/web/serve-data.ts, fixture-server.ts). The demo data set itself shows
// photographs (scripts/demo-photos.ts, demo/ATTRIBUTION.md).
// Run: npx tsx scripts/make-demo-media.ts
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const out = fileURLToPath(new URL('../demo/media/', import.meta.url));
mkdirSync(out, { recursive: true });

const SCENES = [
  { sky: ['#ff9a5a', '#ffd37a'], hills: ['#3d5a80', '#293241'], sun: '#fff3c4', water: false },
  { sky: ['#6ec6ff', '#d6f0ff'], hills: ['#2e7d32', '#1b5e20'], sun: '#ffffff', water: true },
  { sky: ['#1a237e', '#5c6bc0'], hills: ['#283593', '#0d1442'], sun: '#fffde7', water: false },
  { sky: ['#f48fb1', '#fce4ec'], hills: ['#7b1fa2', '#4a148c'], sun: '#fff8e1', water: true },
  { sky: ['#80deea', '#e0f7fa'], hills: ['#00897b', '#004d40'], sun: '#ffffff', water: false },
  { sky: ['#ffcc80', '#fff3e0'], hills: ['#8d6e63', '#4e342e'], sun: '#fffde7', water: true },
];

function scene(i: number): string {
  const s = SCENES[i % SCENES.length]!;
  const peak = 260 + ((i * 97) % 160);
  const sunX = 180 + ((i * 131) % 440);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="800" viewBox="0 0 800 800">
<defs><linearGradient id="s" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${s.sky[0]}"/><stop offset="1" stop-color="${s.sky[1]}"/></linearGradient></defs>
<rect width="800" height="800" fill="url(#s)"/>
<circle cx="${sunX}" cy="${200 + (i % 3) * 40}" r="70" fill="${s.sun}" opacity="0.9"/>
<path d="M0 ${560 - (i % 4) * 20} L${180 + (i % 5) * 30} ${peak} L${380 + (i % 3) * 20} ${480} L${560} ${peak + 60} L800 ${470} V800 H0 Z" fill="${s.hills[0]}"/>
<path d="M0 640 L220 ${470 + (i % 3) * 20} L430 610 L640 ${500 + (i % 4) * 15} L800 600 V800 H0 Z" fill="${s.hills[1]}"/>
${s.water ? '<rect y="690" width="800" height="110" fill="#4fc3f7" opacity="0.75"/>' : ''}
</svg>
`;
}

const PEOPLE = [
  ['AR', '#c62828'],
  ['BO', '#1565c0'],
  ['CM', '#6a1b9a'],
  ['DP', '#2e7d32'],
];

function avatar(initials: string, color: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100">
<rect width="100" height="100" fill="${color}"/>
<text x="50" y="62" font-family="sans-serif" font-size="38" font-weight="700" fill="#fff" text-anchor="middle">${initials}</text>
</svg>
`;
}

const PRODUCTS: [number, string, string][] = [
  [501, '#37474f', 'shoe'],
  [502, '#0277bd', 'jacket'],
];

function product(color: string, kind: string): string {
  const shapes: Record<string, string> = {
    shoe: `<path d="M60 250 Q80 170 150 180 L210 230 Q300 250 340 290 L340 310 H60 Z" fill="${color}"/><rect x="60" y="300" width="280" height="22" rx="8" fill="#212121"/>`,
    jacket: `<path d="M130 90 L200 120 L270 90 L340 150 L310 200 L280 180 L280 330 H120 V180 L90 200 L60 150 Z" fill="${color}"/><path d="M200 120 V330" stroke="#fff" stroke-width="4"/>`,
  };
  return `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400" viewBox="0 0 400 400">
<rect width="400" height="400" fill="#f5f5f5"/>${shapes[kind]}
</svg>
`;
}

for (let i = 0; i < 12; i++) writeFileSync(`${out}scene-${i + 1}.svg`, scene(i));
PEOPLE.forEach(([initials, color], i) => writeFileSync(`${out}avatar-${i + 1}.svg`, avatar(initials!, color!)));
for (const [id, color, kind] of PRODUCTS) writeFileSync(`${out}product-${id}.svg`, product(color, kind));
console.log(`wrote demo media to ${out}`);
