// The wall's styles. Everything is scoped by the open Shadow DOM; `.wall`
// starts from `all: initial` so inherited page styles (colour, font, spacing,
// `* { … !important }` on the host) stop at the boundary. Integrators theme
// through the `--wallery-*` custom properties and `::part()`.
import { css } from 'lit';

export const styles = css`
  :host {
    display: block;
  }
  :host([hidden]) {
    display: none;
  }
  .wall {
    all: initial;
    display: block;
    box-sizing: border-box;
    container-type: inline-size;
    font-family: var(--wallery-font, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif);
    font-size: var(--wallery-font-size, 15px);
    line-height: 1.45;
    color: var(--_fg);
    background: var(--_bg);
    padding: var(--wallery-padding, 12px);
    --_gap: var(--wallery-gap, 12px);
    --_radius: var(--wallery-radius, 10px);
    --_bg: var(--wallery-background, #f3f4f6);
    --_card: var(--wallery-card-background, #ffffff);
    --_fg: var(--wallery-color, #1b1f24);
    --_muted: var(--wallery-muted-color, #4f5862);
    --_accent: var(--wallery-accent, #0a58ca);
    --_line: var(--wallery-border-color, #d6dae0);
    --_on-accent: var(--wallery-on-accent-color, #ffffff);
    --_focus: var(--wallery-focus-color, #0a58ca);
  }
  .wall.dark {
    --_bg: var(--wallery-background, #0f1115);
    --_card: var(--wallery-card-background, #1b1e24);
    --_fg: var(--wallery-color, #eceef1);
    --_muted: var(--wallery-muted-color, #aeb6c0);
    --_accent: var(--wallery-accent, #8cc2ff);
    --_line: var(--wallery-border-color, #353a43);
    --_on-accent: var(--wallery-on-accent-color, #0f1115);
    --_focus: var(--wallery-focus-color, #8cc2ff);
  }
  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }
  a {
    color: var(--_accent);
  }
  :focus-visible {
    outline: 3px solid var(--_focus);
    outline-offset: 2px;
  }
  button {
    font: inherit;
    cursor: pointer;
  }
  .sr {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
  .posts {
    list-style: none;
    margin: 0;
    padding: 0;
  }
  .posts > li {
    margin: 0;
    padding: 0;
  }

  /* layouts */
  /* masonry: a grid of thin rows, each post spanning as many as its height
     needs (wall.ts measures it). Dense placement puts each post in the
     column that ends highest — the shortest — so the columns pack with no
     gap and the posts read left to right, top to bottom, in the API's order */
  .masonry .posts,
  .grid .posts,
  .event .posts {
    display: grid;
    column-gap: var(--_gap);
    grid-auto-rows: 4px;
    grid-auto-flow: row dense;
    align-items: start;
  }
  .masonry .posts {
    grid-template-columns: repeat(
      auto-fill,
      minmax(max(240px, calc((100% - (var(--_cols, 3) - 1) * var(--_gap)) / var(--_cols, 3))), 1fr)
    );
  }
  .masonry .posts > li,
  .grid .posts > li {
    grid-row-end: span var(--_rows, 1);
  }
  /* masonry: a picture at its own aspect ratio; only a very long article is shortened */
  .masonry .text {
    --_lines: 14;
  }
  /* grid: equal columns of tidy cards — every picture in the same 4:3 box,
     cropped about its centre, text clamped to a few lines — packed like the
     masonry, so a short post is never stretched to a row's height and
     leaves no hole under it */
  .grid .posts {
    grid-template-columns: repeat(
      auto-fill,
      minmax(max(220px, calc((100% - (var(--_cols, 3) - 1) * var(--_gap)) / var(--_cols, 3))), 1fr)
    );
  }
  .grid .media img,
  .grid .media video,
  .carousel .media img,
  .carousel .media video,
  .event .media img,
  .event .media video {
    aspect-ratio: 4 / 3;
    object-fit: cover;
    object-position: 50% 50%;
  }
  .grid .text,
  .carousel .text {
    --_lines: 4;
  }
  .grid .quote .text,
  .carousel .quote .text {
    --_lines: 9;
  }
  .carousel .viewport {
    position: relative;
  }
  .carousel .posts {
    display: flex;
    align-items: flex-start;
    gap: var(--_gap);
    overflow-x: auto;
    scroll-snap-type: x mandatory;
    scroll-behavior: smooth;
    overscroll-behavior-x: contain;
    padding-bottom: 6px;
  }
  .carousel .posts > li {
    flex: 0 0 min(320px, 85%);
    scroll-snap-align: start;
  }
  .controls {
    display: flex;
    gap: 8px;
    justify-content: flex-end;
    margin-bottom: 8px;
  }
  .ctl {
    min-width: 40px;
    height: 40px;
    border-radius: 20px;
    border: 1px solid var(--_line);
    background: var(--_card);
    color: var(--_fg);
    padding: 0 14px;
  }

  /* the event screen: full screen, type that scales with the screen (read
     from across a room), a banner with the call to post and a QR code, the
     posts a screenful at a time in 4–6 columns at 1920 px, more at 3840 */
  .event {
    height: 100vh;
    overflow: hidden;
    padding: 0;
    font-size: var(--wallery-font-size, clamp(16px, calc(0.7vmax + 7px), 60px));
    --_gap: var(--wallery-gap, 0.9em);
  }
  .event .stage {
    height: 100%;
    display: grid;
    grid-template-columns: minmax(0, 1fr);
    grid-template-rows: auto minmax(0, 1fr);
    transition: transform 20s linear;
  }
  .event .banner {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.6em 1.2em;
    padding: 0.8em 1.2em;
    /* the wall's own colours: a shade of its card colour on its background, edged with its accent */
    background: color-mix(in srgb, var(--_card) 65%, var(--_bg));
    border-bottom: 0.25em solid var(--_accent);
  }
  .event .brand {
    display: flex;
    align-items: center;
    gap: 0.7em;
    min-width: 0;
    flex: 1 1 12em;
  }
  .event .logo {
    height: 2.4em;
    width: auto;
    max-width: 8em;
    object-fit: contain;
  }
  .event h1 {
    font-size: 1.5em;
    line-height: 1.15;
    margin: 0;
    overflow-wrap: anywhere;
  }
  .event .call {
    margin: 0;
    font-size: 1.5em;
    font-weight: 800;
    line-height: 1.15;
    color: var(--_accent);
    overflow-wrap: anywhere;
  }
  .event .state {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.6em;
  }
  .event .ctls {
    display: inline-flex;
    gap: 0.4em;
  }
  /* the screen's controls scale with its type (a 4K screen's are as big, in proportion, as a 1080p one's) */
  .event .ctl {
    font-size: 0.75em;
    height: 2.4em;
    min-width: 2.4em;
    border-radius: 1.2em;
    padding: 0 0.9em;
  }
  .event .live {
    gap: 0.4em;
  }
  .qrbox {
    margin: 0;
    display: flex;
    flex-direction: column;
    align-items: center;
    gap: 0.3em;
  }
  .qrbox figcaption {
    font-size: 0.8em;
    font-weight: 600;
    color: var(--_muted);
  }
  .qr {
    display: block;
    width: 7em;
    height: 7em;
    border-radius: 6px;
  }
  /* a landscape screen: the banner is a column at the side, the posts get the height */
  @media (orientation: landscape) and (min-width: 900px) {
    .event .stage {
      grid-template-columns: 15em minmax(0, 1fr);
      grid-template-rows: minmax(0, 1fr);
    }
    .event .banner {
      flex-direction: column;
      flex-wrap: nowrap;
      align-items: stretch;
      justify-content: flex-start;
      gap: 1.2em;
      padding: 1.4em 1.2em;
      border-bottom: 0;
      border-right: 0.25em solid var(--_accent);
      overflow: hidden;
    }
    .event .brand {
      flex: none;
      flex-direction: column;
      align-items: flex-start;
    }
    .event .logo {
      height: 3.2em;
      max-width: 100%;
    }
    .event .call {
      font-size: 1.7em;
    }
    .event .qrbox.side {
      align-items: flex-start;
    }
    .event .qr {
      width: min(9em, 100%);
      height: auto;
      aspect-ratio: 1;
    }
    .event .state {
      margin-top: auto;
    }
  }
  .event .screen {
    overflow: hidden;
    padding: 1em 1.2em;
  }
  .event .posts {
    grid-template-columns: repeat(auto-fill, minmax(min(100%, 12.5em), 1fr));
  }
  /* wall.ts places each post of the page; one that does not fit waits for the next */
  .event .posts > li.off {
    display: none;
  }
  /* a pinned or featured post gets room: two columns (wall.ts: one per page), larger type */
  .event [data-span='2'] .text {
    font-size: 1.2em;
  }
  .event .text {
    --_lines: 5;
  }
  .event .quote .text {
    --_lines: 8;
  }
  .event .media img,
  .event .media video {
    max-height: 55vh;
  }
  /* the two-column post's picture is wide as well (its own shape between 3:2 and 16:9, wall.ts):
     its card leaves room below it for another post */
  .event [data-span='2'] .media img,
  .event [data-span='2'] .media video {
    aspect-ratio: var(--_wide-ratio, 16 / 9);
  }
  .turn {
    animation: turn 0.8s ease-out;
  }
  @keyframes turn {
    from {
      opacity: 0;
    }
  }
  .waiting {
    display: flex;
    flex-direction: column;
    align-items: center;
    justify-content: center;
    gap: 1.2em;
    padding: 2em;
    text-align: center;
  }
  .waiting .call {
    font-size: 2.6em;
    max-width: 16em;
  }
  .waiting .qr {
    width: 12em;
    height: 12em;
  }
  .waiting .hint {
    margin: 0;
    color: var(--_muted);
    font-size: 1.1em;
  }
  .live {
    display: inline-flex;
    align-items: center;
    gap: 8px;
    font-weight: 600;
    text-transform: uppercase;
    letter-spacing: 0.06em;
    font-size: 0.8em;
  }
  .dot {
    width: 0.8em;
    height: 0.8em;
    border-radius: 50%;
    background: var(--_muted);
  }
  .live.on .dot {
    background: #12a150;
    box-shadow: 0 0 0 0 #12a15099;
    animation: pulse 2s infinite;
  }
  @keyframes pulse {
    70% {
      box-shadow: 0 0 0 10px #12a15000;
    }
  }
  /* a post that arrives live fades in where it goes, a few px from above */
  .enter {
    animation: enter 0.7s cubic-bezier(0.2, 0.7, 0.3, 1);
  }
  @keyframes enter {
    from {
      opacity: 0;
      transform: translateY(-12px);
    }
  }
  @media (prefers-reduced-motion: reduce) {
    .turn {
      animation: none;
    }
    .event .stage {
      transition: none;
    }
  }

  /* a post */
  .post {
    display: flex;
    flex-direction: column;
    background: var(--_card);
    border: 1px solid var(--_line);
    border-radius: var(--_radius);
    box-shadow:
      0 1px 2px #10182814,
      0 2px 8px #1018280d;
    overflow: hidden;
    position: relative;
  }
  .dark .post {
    box-shadow: none;
  }
  /* pinned: a clean tint of the accent; featured: framed in the accent */
  .post.pinned {
    background: color-mix(in srgb, var(--_accent) 9%, var(--_card));
    border-color: color-mix(in srgb, var(--_accent) 55%, var(--_card));
  }
  .post.highlighted {
    border: 2px solid var(--_accent);
  }
  .flag {
    align-self: flex-start;
    margin: 12px 14px 0;
    font-size: 0.72em;
    font-weight: 700;
    letter-spacing: 0.04em;
    text-transform: uppercase;
    padding: 3px 10px;
    border-radius: 999px;
    background: var(--_accent);
    color: var(--_on-accent);
  }
  .has-media .flag {
    position: absolute;
    top: 10px;
    left: 10px;
    z-index: 1;
    margin: 0;
    box-shadow: 0 1px 3px #0006;
  }
  .media {
    position: relative;
    background: var(--_line);
  }
  .media img,
  .media video {
    display: block;
    width: 100%;
    height: auto;
    border: 0;
  }
  /* the placeholder (a blurred preview) fills the picture's box until it loads */
  .media img {
    background-size: cover;
    background-position: 50% 50%;
    background-repeat: no-repeat;
  }
  /* loaded: the preview goes — except in the spotlight, where it fills the bars beside a picture
     of another shape (object-fit: contain) with the picture's own colours, blurred */
  .media img[data-loaded]:not(.spotlight .media img) {
    background-image: none !important;
  }
  .media .unsized {
    aspect-ratio: 1;
    object-fit: cover;
  }
  .facade {
    display: block;
    position: relative;
    width: 100%;
    padding: 0;
    border: 0;
    background: none;
  }
  /* a video with no poster to show: nothing loads until it is played */
  .facade.bare {
    aspect-ratio: 16 / 9;
    background: #1b1e24;
  }
  .playicon {
    position: absolute;
    left: 50%;
    top: 50%;
    width: 64px;
    height: 64px;
    margin: -32px 0 0 -32px;
    border-radius: 50%;
    background: #000000b3;
    box-shadow: 0 0 0 3px #fff;
  }
  .playicon::after {
    content: '';
    position: absolute;
    left: 25px;
    top: 19px;
    border-style: solid;
    border-width: 13px 0 13px 22px;
    border-color: transparent transparent transparent #fff;
  }
  .slides {
    display: flex;
    overflow-x: auto;
    scroll-snap-type: x mandatory;
  }
  .slides > * {
    flex: 0 0 100%;
    scroll-snap-align: start;
  }
  .count {
    position: absolute;
    right: 8px;
    top: 8px;
    background: #000000b3;
    color: #fff;
    font-size: 0.75em;
    padding: 2px 8px;
    border-radius: 999px;
  }
  .body {
    padding: 0.85em 1em 0.9em;
    display: flex;
    flex-direction: column;
    gap: 0.55em;
  }
  .author {
    display: flex;
    align-items: center;
    gap: 0.65em;
    min-width: 0;
  }
  .avatar {
    width: 2.4em;
    height: 2.4em;
    border-radius: 50%;
    flex: none;
    object-fit: cover;
    background: var(--_line);
  }
  .avatar.initials {
    display: inline-grid;
    place-items: center;
    font-size: 0.85em;
    width: 2.8em;
    height: 2.8em;
    font-weight: 700;
    color: var(--_fg);
  }
  .who {
    display: flex;
    flex-direction: column;
    min-width: 0;
    flex: 1;
  }
  .name {
    font-weight: 650;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
    color: var(--_fg);
    text-decoration: none;
  }
  a.name:hover {
    text-decoration: underline;
  }
  .handle,
  .meta {
    color: var(--_muted);
    font-size: 0.85em;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .net {
    flex: none;
    font-size: 0.72em;
    font-weight: 700;
    padding: 2px 8px;
    border-radius: 999px;
    border: 1px solid var(--_line);
    color: var(--_muted);
  }
  .text {
    overflow-wrap: anywhere;
  }
  /* long text: a few lines (by layout), the rest behind "More" */
  .post:not(.open) .text {
    display: -webkit-box;
    -webkit-box-orient: vertical;
    -webkit-line-clamp: var(--_lines, 14);
    line-clamp: var(--_lines, 14);
    overflow: hidden;
  }
  .text p {
    margin: 0 0 0.5em;
  }
  .text > :last-child {
    margin-bottom: 0;
  }
  .text img.emoji {
    width: 1.2em;
    height: 1.2em;
    vertical-align: -0.2em;
  }
  .text blockquote {
    margin: 0.5em 0;
    padding-left: 10px;
    border-left: 3px solid var(--_line);
  }
  .morebtn {
    display: none;
    align-self: flex-start;
    margin-top: -0.3em;
    padding: 0;
    border: 0;
    background: none;
    color: var(--_accent);
    font-weight: 650;
    font-size: 0.9em;
  }
  .morebtn:hover {
    text-decoration: underline;
  }
  .post[data-clamped] .morebtn,
  .post.open .morebtn {
    display: block;
  }
  /* a post of words only: a quote, its text large, its author under it */
  .quote .body {
    padding: 1.1em 1.2em 1em;
    gap: 0.8em;
  }
  .quote .text {
    order: -1;
    font-weight: 500;
    line-height: 1.32;
    letter-spacing: -0.005em;
  }
  .quote .morebtn {
    order: -1;
  }
  .qmark {
    order: -2;
    height: 0.42em;
    margin-bottom: 0.1em;
    font:
      700 3.2em/1 Georgia,
      'Times New Roman',
      serif;
    color: var(--_accent);
  }
  .q-short .text {
    font-size: 1.45em;
  }
  .q-mid .text {
    font-size: 1.2em;
  }
  .q-long .text {
    font-size: 1.05em;
  }
  .quote .name {
    font-weight: 750;
  }
  .foot {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 8px;
  }
  /* the date never shrinks: on a narrow card the shop and CTA buttons go to a row of their own */
  .foot .meta {
    flex: 1 0 auto;
  }
  .foot .actions {
    display: flex;
    flex-wrap: wrap;
    gap: 8px;
  }
  .meta a {
    color: var(--_muted);
  }
  .cta,
  .shop {
    display: inline-block;
    padding: 6px 14px;
    border-radius: 999px;
    font-weight: 600;
    font-size: 0.9em;
    text-decoration: none;
    border: 0;
    background: var(--_accent);
    color: var(--_card);
  }
  .shop {
    background: transparent;
    color: var(--_accent);
    border: 1px solid var(--_accent);
  }
  .more {
    display: block;
    margin: 16px auto 0;
  }
  .status {
    padding: 24px;
    text-align: center;
    color: var(--_muted);
  }

  /* the shoppable dialog */
  dialog {
    border: 0;
    border-radius: var(--_radius);
    padding: 0;
    width: min(920px, 94vw);
    max-height: 92vh;
    background: var(--_card);
    color: var(--_fg);
  }
  dialog::backdrop {
    background: #000000a6;
  }
  .shopbox {
    display: grid;
    grid-template-columns: minmax(0, 3fr) minmax(0, 2fr);
    gap: 16px;
    padding: 16px;
  }
  @container (max-width: 640px) {
    .shopbox {
      grid-template-columns: 1fr;
    }
  }
  .shopbox h2 {
    margin: 0 0 8px;
    font-size: 1.15em;
  }
  .close {
    position: absolute;
    top: 8px;
    right: 8px;
    z-index: 2;
  }
  .shopbox .stage {
    position: relative;
    margin: 0;
  }
  /* the shop dialog's picture (the event screen has a .stage of its own) */
  .shopbox .stage img {
    display: block;
    width: 100%;
    height: auto;
    border-radius: 6px;
  }
  .hotspot {
    position: absolute;
    transform: translate(-50%, -50%);
    width: 30px;
    height: 30px;
    border-radius: 50%;
    border: 2px solid #fff;
    background: #0a58ca;
    color: #fff;
    font-weight: 700;
    display: grid;
    place-items: center;
    text-decoration: none;
    box-shadow: 0 1px 4px #0008;
  }
  .products {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    gap: 10px;
  }
  .product {
    display: grid;
    grid-template-columns: 64px 1fr;
    gap: 10px;
    align-items: center;
    border: 1px solid var(--_line);
    border-radius: 8px;
    padding: 8px;
  }
  .product img {
    width: 64px;
    height: 64px;
    object-fit: cover;
    border-radius: 6px;
  }
  .product .price {
    color: var(--_muted);
  }
  @media (prefers-reduced-motion: reduce) {
    .enter,
    .live.on .dot {
      animation: none;
    }
    .carousel .posts,
    .event .scroller {
      scroll-behavior: auto;
    }
  }

  /* the wall's branding (branding.ts) */
  .wall {
    line-height: var(--wallery-line-height, 1.45);
  }
  :host([card-style='flat']) .post:not(.highlighted):not(.pinned) {
    box-shadow: none;
    border-color: transparent;
  }
  :host([card-style='outlined']) .post:not(.highlighted) {
    box-shadow: none;
    border: 2px solid color-mix(in srgb, var(--_fg) 38%, var(--_card));
  }
  .status,
  .waiting,
  .event .banner {
    color: var(--wallery-page-color, var(--_fg));
  }
  .status,
  .waiting .hint,
  .qrbox figcaption {
    color: var(--wallery-page-color, var(--_muted));
  }
  .event .call {
    color: var(--wallery-page-accent, var(--_accent));
  }
  a,
  .morebtn,
  .shop {
    color: var(--wallery-link-color, var(--_accent));
  }
`;
