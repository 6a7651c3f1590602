// The styles of the host's screen control (screen.ts): the full-screen
// spotlight, slide and closing screens over the wall, and the live-stream
// overlay (a transparent page: a lower-third card or a one-line ticker).
// A plain string (screen-view.ts imports nothing at run time: a chunk that imported
// Lit would load the entry module a second time); the wall adopts it with unsafeCSS.
export const SCREEN_CSS = `
  .takeover {
    position: absolute;
    inset: 0;
    z-index: 5;
    box-sizing: border-box;
    display: flex;
    flex-direction: column;
    align-items: center;
    justify-content: center;
    gap: 0.6em;
    padding: 4vmin 6vmin;
    background: var(--_bg);
    color: var(--wallery-page-color, var(--_fg));
    text-align: center;
    overflow: hidden;
    animation: wallery-takeover 0.5s ease-out;
  }
  @keyframes wallery-takeover {
    from {
      opacity: 0;
    }
  }
  @media (prefers-reduced-motion: reduce) {
    .takeover {
      animation: none;
    }
  }
  /* one post, large: its picture and type fill the screen */
  .spotlight {
    font-size: max(1em, 2.2vmin);
  }
  .spotlight > .post {
    width: min(100%, 70em);
    max-height: 100%;
    font-size: 1.6em;
    text-align: start;
    border: 0.2em solid var(--_accent);
  }
  .spotlight > .post .text {
    --_lines: 8;
  }
  .spotlight > .post .media img,
  .spotlight > .post .media video {
    max-height: 55vh;
    object-fit: contain;
  }
  .takeover h2 {
    margin: 0;
    font-size: max(2em, 5vmin);
    line-height: 1.1;
    overflow-wrap: anywhere;
  }
  .slide-text,
  .closed-text {
    margin: 0;
    max-width: 40em;
    font-size: max(1.2em, 2.8vmin);
    line-height: 1.35;
    white-space: pre-line;
    overflow-wrap: anywhere;
  }
  .slide-img {
    height: min(40vh, 30em);
    width: auto;
    max-width: 80%;
    object-fit: contain;
    border-radius: var(--_radius);
  }
  .sponsor {
    margin: 0;
    padding: 0.25em 0.8em;
    border-radius: 1em;
    font-size: max(0.9em, 1.8vmin);
    font-weight: 700;
    letter-spacing: 0.08em;
    text-transform: uppercase;
    background: var(--_accent);
    color: var(--_on-accent, #fff);
  }
  .closed .logo {
    max-height: 18vh;
    max-width: 60%;
    object-fit: contain;
  }
  .closed-text {
    font-weight: 700;
  }
  .closed h2 {
    padding-bottom: 0.3em;
    border-bottom: 0.12em solid var(--_accent);
  }

  /* the overlay for live streams: nothing but the card or the line, on a transparent page */
  .wall.overlay-mode {
    font-size: clamp(16px, 1.6vw, 48px);
  }
  .overlay {
    position: absolute;
    box-sizing: border-box;
    background: color-mix(in srgb, var(--_card) 94%, transparent);
    color: var(--_fg);
    box-shadow: 0 0.3em 1.2em rgb(0 0 0 / 0.35);
  }
  .lower-third {
    left: 4vw;
    bottom: 6vh;
    width: min(60vw, 40em);
    display: flex;
    gap: 0.8em;
    align-items: center;
    padding: 0.8em 1.1em;
    border-radius: var(--_radius);
    border-left: 0.35em solid var(--_accent);
    animation: wallery-takeover 0.5s ease-out;
  }
  .lt-avatar {
    width: 3em;
    height: 3em;
    border-radius: 50%;
    object-fit: cover;
    flex: none;
  }
  .lt-body {
    min-width: 0;
  }
  .lt-author {
    margin: 0;
    font-weight: 700;
  }
  .lt-author span {
    font-weight: 400;
    color: var(--_muted);
  }
  .lt-text {
    margin: 0.15em 0 0;
    display: -webkit-box;
    -webkit-line-clamp: 2;
    -webkit-box-orient: vertical;
    overflow: hidden;
  }
  .ticker {
    left: 0;
    right: 0;
    bottom: 0;
    padding: 0.5em 0;
    white-space: nowrap;
    overflow: hidden;
    border-top: 0.2em solid var(--_accent);
  }
  .ticker-track {
    display: inline-flex;
    gap: 3em;
    padding-left: 100%;
    animation: wallery-ticker 60s linear infinite;
  }
  .tick b {
    color: var(--_accent);
    margin-right: 0.3em;
  }
  @keyframes wallery-ticker {
    to {
      transform: translateX(-100%);
    }
  }
  @media (prefers-reduced-motion: reduce) {
    .ticker-track {
      animation: none;
      padding-left: 1em;
    }
    .lower-third {
      animation: none;
    }
  }
`;
