// The demo's product photographs: each a studio shot composed by
// scripts/demo-photos.ts from openly licensed photographs of instruments
// (cut-outs of the Tux Paint stamps, demo/ATTRIBUTION.md) on a plain
// backdrop. The same placements give the shoppable posts their hotspots, so
// a hotspot is on the product that the picture shows (`left`/`top`: % of the
// picture, at the middle of the product).

/** A demo product and the cut-out photograph it is made from (a key of the script's sources). */
export interface DemoProduct {
  id: number;
  name: string;
  price: number;
  sku: string;
  type: string;
  photo: string;
}

export const DEMO_PRODUCTS: DemoProduct[] = [
  {
    id: 501,
    name: 'Parlour Classical',
    price: 389,
    sku: 'TW-CL-PAR',
    type: 'guitar',
    photo: 'guitar_classical',
  },
  {
    id: 502,
    name: 'Ember Electric',
    price: 749,
    sku: 'TW-EL-EMB',
    type: 'guitar',
    photo: 'guitar_electric',
  },
  { id: 503, name: 'Lowline Bass', price: 629, sku: 'TW-BS-LOW', type: 'bass', photo: 'guitar_electric_bass' },
  { id: 504, name: 'Roadhouse Sunburst', price: 899, sku: 'TW-EL-RDH', type: 'guitar', photo: 'guitar2' },
  { id: 505, name: 'Student Cello 4/4', price: 1150, sku: 'TW-ST-CEL', type: 'strings', photo: 'cello' },
  { id: 506, name: 'Bb Trumpet', price: 540, sku: 'TW-BR-TRP', type: 'brass', photo: 'trumpet' },
  { id: 507, name: '16" Crash Cymbal', price: 189, sku: 'TW-PC-C16', type: 'percussion', photo: 'cymbal_crash' },
  {
    id: 508,
    name: '14" Floor Tom',
    price: 259,
    sku: 'TW-PC-F14',
    type: 'percussion',
    photo: 'drum_tomtom_floor',
  },
];

/** One product in a studio shot: its middle at (`left`, `top`) % of the picture, `height` % of the picture's height tall. */
export interface SceneItem {
  productId: number;
  left: number;
  top: number;
  height: number;
}

export interface DemoScene {
  /** the file in demo/media */
  file: string;
  width: number;
  height: number;
  /** the backdrop: a wall colour at the top, a floor colour at the bottom */
  backdrop: [string, string];
  items: SceneItem[];
}

export const DEMO_SCENES: DemoScene[] = [
  {
    file: 'brand-parlour.jpg',
    width: 800,
    height: 1000,
    backdrop: ['#efe4d2', '#d9c6a8'],
    items: [{ productId: 501, left: 50, top: 50, height: 62 }],
  },
  {
    file: 'brand-first-guitars.jpg',
    width: 800,
    height: 1000,
    backdrop: ['#e3b25a', '#c08a3a'],
    items: [
      { productId: 501, left: 32, top: 50, height: 60 },
      { productId: 502, left: 68, top: 50, height: 60 },
    ],
  },
  {
    file: 'brand-guitar-wall.jpg',
    width: 1200,
    height: 800,
    backdrop: ['#e6e8e3', '#c9cdc4'],
    items: [
      { productId: 501, left: 22, top: 52, height: 72 },
      { productId: 504, left: 50, top: 50, height: 84 },
      { productId: 502, left: 78, top: 52, height: 72 },
    ],
  },
  {
    file: 'brand-cello.jpg',
    width: 800,
    height: 1000,
    backdrop: ['#dfe7df', '#b9c8b9'],
    items: [{ productId: 505, left: 50, top: 50, height: 74 }],
  },
  {
    file: 'brand-trumpet.jpg',
    width: 1000,
    height: 750,
    backdrop: ['#1f2b44', '#141c2e'],
    items: [{ productId: 506, left: 50, top: 52, height: 26 }],
  },
  {
    file: 'brand-percussion.jpg',
    width: 1000,
    height: 1000,
    backdrop: ['#e9b48a', '#c98a5e'],
    items: [
      { productId: 507, left: 36, top: 34, height: 28 },
      { productId: 508, left: 64, top: 62, height: 52 },
    ],
  },
  {
    file: 'brand-roadhouse.jpg',
    width: 800,
    height: 1000,
    backdrop: ['#d6e4ef', '#aebfcf'],
    items: [{ productId: 504, left: 50, top: 50, height: 70 }],
  },
  {
    file: 'brand-brass-and-bass.jpg',
    width: 1000,
    height: 1000,
    backdrop: ['#f3eee6', '#dcd3c4'],
    items: [
      { productId: 503, left: 30, top: 50, height: 70 },
      { productId: 506, left: 66, top: 56, height: 18 },
    ],
  },
];

/** The file of a product's own photograph in demo/media. */
export const productFile = (id: number) => `product-${id}.jpg`;
