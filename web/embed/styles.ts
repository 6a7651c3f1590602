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
    --_hl-bg: var(--wallery-highlight-background, #fff6db);
    --_hl: var(--wallery-highlight-color, #8a5300);
    --_focus: var(--wallery-focus-color, #0a58ca);
  }
  .wall.dark {
    --_bg: var(--wallery-background, #0f1115);
    --_card: var(--wallery-card-background, #1b1e24);
    --_fg: var(--wallery-color, #eceef1);
    --_muted: var(--wallery-muted-color, #aeb6c0);
    --_accent: var(--wallery-accent, #8cc2ff);
    --_line: var(--wallery-border-color, #353a43);
    --_hl-bg: var(--wallery-highlight-background, #2d2612);
    --_hl: var(--wallery-highlight-color, #ffcf66);
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
     needs (wall.ts measures it): posts keep the API's order across the
     columns, every one as tall as its picture and text make it */
  .masonry .posts {
    display: grid;
    column-gap: var(--_gap);
    grid-template-columns: repeat(
      auto-fill,
      minmax(max(240px, calc((100% - (var(--_cols, 3) - 1) * var(--_gap)) / var(--_cols, 3))), 1fr)
    );
    grid-auto-rows: 4px;
    align-items: start;
  }
  .masonry .posts > li {
    grid-row-end: span var(--_rows, 1);
  }
  .grid .posts {
    display: grid;
    gap: var(--_gap);
    grid-template-columns: repeat(
      auto-fill,
      minmax(max(220px, calc((100% - (var(--_cols, 3) - 1) * var(--_gap)) / var(--_cols, 3))), 1fr)
    );
  }
  .grid .post,
  .event .post {
    height: 100%;
  }
  .grid .media img,
  .grid .media video {
    aspect-ratio: 1;
    object-fit: cover;
    object-position: 50% 50%;
  }
  .carousel .viewport {
    position: relative;
  }
  .carousel .posts {
    display: flex;
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
  .carousel .post {
    height: 100%;
  }
  /* the cards of a row alike: every picture square, cropped about its centre */
  .carousel .media img,
  .carousel .media video {
    aspect-ratio: 1;
    object-fit: cover;
    object-position: 50% 50%;
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
    padding: 0 12px;
  }
  .event {
    height: 100vh;
    display: flex;
    flex-direction: column;
    font-size: var(--wallery-font-size, clamp(16px, 1.4vw, 26px));
    padding: 0;
  }
  .event .top {
    display: flex;
    align-items: center;
    gap: 16px;
    padding: 14px 24px;
    border-bottom: 1px solid var(--_line);
  }
  .event h1 {
    font-size: 1.5em;
    margin: 0;
    flex: 1;
  }
  @container (max-width: 560px) {
    .event .top {
      flex-wrap: wrap;
      padding: 10px 12px;
      gap: 8px 16px;
    }
    .event h1 {
      flex-basis: 100%;
      font-size: 1.25em;
    }
    .event .scroller {
      padding: 12px;
    }
  }
  .event .scroller {
    flex: 1;
    overflow-y: auto;
    padding: 20px 24px;
    scroll-behavior: smooth;
  }
  .event .posts {
    display: grid;
    gap: 20px;
    grid-template-columns: repeat(auto-fill, minmax(max(300px, calc((100% - 2 * 20px) / var(--_cols, 3))), 1fr));
  }
  /* an event screen's cards alike: every picture in the same box, cropped about its centre */
  .event .media img,
  .event .media video {
    aspect-ratio: 4 / 3;
    max-height: 60vh;
    object-fit: cover;
    object-position: 50% 50%;
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
  .enter {
    animation: enter 0.6s ease-out;
  }
  @keyframes enter {
    from {
      opacity: 0;
      transform: translateY(-16px) scale(0.97);
    }
  }

  /* a post */
  .post {
    display: flex;
    flex-direction: column;
    background: var(--_card);
    border: 1px solid var(--_line);
    border-radius: var(--_radius);
    overflow: hidden;
    position: relative;
  }
  .post.highlighted {
    background: var(--_hl-bg);
    border: 2px solid var(--_hl);
  }
  .post.pinned {
    border: 2px solid var(--_accent);
  }
  .flag {
    align-self: flex-start;
    margin: 12px 14px 0;
    font-size: 0.75em;
    font-weight: 700;
    padding: 2px 8px;
    border-radius: 999px;
    background: var(--_card);
    color: var(--_fg);
    border: 1px solid var(--_line);
  }
  .has-media .flag {
    position: absolute;
    top: 8px;
    left: 8px;
    z-index: 1;
    margin: 0;
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
  .media img[data-loaded] {
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
    padding: 12px 14px 14px;
    display: flex;
    flex-direction: column;
    gap: 8px;
    flex: 1;
  }
  .author {
    display: flex;
    align-items: center;
    gap: 10px;
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
  .text p {
    margin: 0 0 0.5em;
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
  .foot {
    margin-top: auto;
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 8px;
  }
  .foot .meta {
    flex: 1;
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
  .stage {
    position: relative;
    margin: 0;
  }
  .stage img {
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
`;
