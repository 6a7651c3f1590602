// The submission page and its small companions (closed, delete confirm,
// deleted), rendered on the server in the wall's branding and the page's
// language: one HTML document, one stylesheet inline (allowed by its hash),
// one script of this origin. Mobile-first: one column that fits a 320 px
// phone, the photo button a full-width target, nothing loaded but the page,
// its script and the wall's logo.
import { createHash } from 'node:crypto';
import { contrastRatio, effectiveColors, FONT_STACKS, storedBranding, type Branding } from '../../domain/branding.js';
import { fillWords, UPLOAD_LIMITS, type UploadWords } from '../../domain/uploads.js';
import { FAVICON_LINK } from '../web/favicon.js';
import { escapeHtml } from '../web/page.js';

/** What every page of the submission shows of its wall. */
export interface SubmitLook {
  wallName: string;
  title: string | null;
  /** the wall's branding column (JSON) and theme */
  branding: string | null;
  theme: string | null;
  language: string;
  words: UploadWords;
}

/** The colours of the page: the wall's branding, in its theme (light unless the wall is dark). */
function styleOf(look: SubmitLook): { css: string; logo: string | null; dark: boolean } {
  const b: Branding = storedBranding(look.branding);
  const dark = look.theme === 'dark';
  const c = effectiveColors(b, dark ? 'dark' : 'light');
  const onAccent = contrastRatio(c.accent, '#ffffff') >= 4.5 ? '#ffffff' : '#111111';
  const muted = dark ? '#b4bac6' : '#4a5060';
  const radius = b.radius ?? 14;
  const css = `:root{color-scheme:${dark ? 'dark' : 'light'};--bg:${c.background};--card:${c.cardBackground};--text:${c.text};--accent:${c.accent};--on-accent:${onAccent};--muted:${muted};--line:${dark ? '#2f3440' : '#d5d9e0'};--r:${radius}px;--bad:${dark ? '#ffb4ab' : '#b3261e'}}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;min-height:100vh;background:var(--bg);color:var(--text);font:16px/1.5 ${FONT_STACKS[b.font]}}
.wrap{max-width:34rem;margin:0 auto;padding:1rem 1rem 2rem}
header{display:flex;align-items:center;gap:.75rem;padding:.5rem .25rem 1.25rem}
header img{height:2.5rem;width:auto;max-width:10rem;object-fit:contain}
header .wall{font-weight:600;font-size:.9375rem;color:var(--muted)}
main{background:var(--card);border-radius:var(--r);padding:1.5rem 1.25rem;box-shadow:0 1px 2px rgba(0,0,0,.06),0 8px 24px rgba(0,0,0,.08);border:1px solid var(--line)}
h1{font-size:1.625rem;line-height:1.2;margin:0 0 .375rem;letter-spacing:-.015em}
h1:focus{outline:none}
.intro{margin:0 0 1.5rem;color:var(--muted)}
.field{margin:0 0 1.25rem}
label.name,.label{display:block;font-weight:600;margin:0 0 .375rem}
.hint{display:block;font-size:.875rem;color:var(--muted);margin:.375rem 0 0}
input[type=text],textarea,input[type=url]{width:100%;font:inherit;color:var(--text);background:var(--bg);border:1px solid var(--line);border-radius:calc(var(--r) * .6);padding:.75rem .875rem;min-height:3rem}
textarea{min-height:6.5rem;resize:vertical}
input:focus-visible,textarea:focus-visible,button:focus-visible,.pick:focus-within{outline:3px solid var(--accent);outline-offset:2px}
.file{position:absolute;width:1px;height:1px;opacity:0;overflow:hidden}
.pick{display:flex;align-items:center;justify-content:center;gap:.625rem;width:100%;min-height:3.5rem;padding:.875rem 1rem;border:2px dashed var(--accent);border-radius:var(--r);color:var(--text);font-weight:600;cursor:pointer;background:transparent}
.pick svg{width:1.5rem;height:1.5rem;fill:none;stroke:var(--accent);stroke-width:2;stroke-linecap:round;stroke-linejoin:round}
.preview{margin:.75rem 0 0;border-radius:var(--r);overflow:hidden;background:var(--bg);border:1px solid var(--line)}
.preview img{display:block;width:100%;max-height:22rem;object-fit:contain}
.terms{font-size:.875rem;color:var(--muted);white-space:pre-line;margin:0 0 .75rem;max-height:9rem;overflow:auto;padding:.75rem;border:1px solid var(--line);border-radius:calc(var(--r) * .6)}
.consent{display:flex;gap:.75rem;align-items:flex-start;font-size:.9375rem}
.consent input{width:1.375rem;height:1.375rem;margin:.125rem 0 0;flex:none;accent-color:var(--accent)}
.problem{margin:0 0 1rem;padding:.75rem .875rem;border-radius:calc(var(--r) * .6);border:1px solid var(--bad);color:var(--bad);font-weight:600}
.problem:focus{outline:none}
.button{display:block;width:100%;min-height:3.25rem;border:0;border-radius:var(--r);background:var(--accent);color:var(--on-accent);font:inherit;font-weight:700;font-size:1.0625rem;cursor:pointer;text-align:center;text-decoration:none;padding:.875rem 1rem}
.button[disabled]{opacity:.7;cursor:progress}
.button.quiet{background:transparent;color:var(--text);border:1px solid var(--line);font-weight:600}
.progress{height:.375rem;border-radius:1rem;background:var(--line);overflow:hidden;margin:.75rem 0 0}
.progress span{display:block;height:100%;width:0;background:var(--accent);transition:width .2s}
.status{min-height:1.5rem;margin:.5rem 0 0;text-align:center;color:var(--muted);font-size:.9375rem}
.done{text-align:center}
.done .check{width:3.5rem;height:3.5rem;margin:0 auto 1rem;border-radius:50%;background:var(--accent);display:grid;place-items:center}
.done .check svg{width:1.75rem;height:1.75rem;fill:none;stroke:var(--on-accent);stroke-width:3;stroke-linecap:round;stroke-linejoin:round}
.keep{text-align:left;margin:1.5rem 0;padding:1rem;border-radius:var(--r);border:1px solid var(--line);background:var(--bg)}
.keep h2{font-size:1rem;margin:0 0 .375rem}
.keep p{margin:0 0 .75rem;font-size:.9375rem;color:var(--muted)}
.keep input{font-size:.875rem;margin:0 0 .75rem}
.stack{display:grid;gap:.75rem}
noscript p{color:var(--bad)}
footer{text-align:center;font-size:.8125rem;color:var(--muted);margin:1.5rem 0 0}
[hidden]{display:none!important}
@media (min-width:48rem){.wrap{padding-top:3rem}main{padding:2rem 2.25rem}}
`;
  return { css, logo: b.logoUrl, dark };
}

/** The page's policy: its inline stylesheet by hash, its script from this origin, the logo's host. */
export function submitCsp(css: string, logo: string | null): string {
  let logoOrigin = '';
  try {
    if (logo) logoOrigin = ` ${new URL(logo).origin}`;
  } catch {
    logoOrigin = '';
  }
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'sha256-${createHash('sha256').update(css).digest('base64')}'`,
    `img-src 'self' blob: data:${logoOrigin}`,
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export interface RenderedPage {
  html: string;
  csp: string;
}

function shell(look: SubmitLook, heading: string, body: string, scriptSrc: string | null): RenderedPage {
  const { css, logo, dark } = styleOf(look);
  const name = escapeHtml(look.wallName);
  const html = `<!doctype html>
<html lang="${escapeHtml(look.language)}"${dark ? ' data-theme="dark"' : ''}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="robots" content="noindex">
<title>${escapeHtml(heading)} · ${name}</title>
${FAVICON_LINK}
<style>${css}</style>
${scriptSrc ? `<script type="module" src="${escapeHtml(scriptSrc)}"></script>` : ''}
</head>
<body>
<div class="wrap">
<header>${logo ? `<img src="${escapeHtml(logo)}" alt="${name}">` : ''}<span class="wall"${logo ? ' aria-hidden="true"' : ''}>${name}</span></header>
<main>
${body}
</main>
<footer>${escapeHtml(look.words.poweredBy)}</footer>
</div>
</body>
</html>
`;
  return { html, csp: submitCsp(css, logo) };
}

export interface FormPage {
  /** the form's action: the page's own path (the script posts to it and asks `${action}/challenge`) */
  action: string;
  terms: string;
  consentText: string;
  maxBytes: number;
}

const CAMERA =
  '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M4 8h3l2-3h6l2 3h3a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V9a1 1 0 0 1 1-1z"/><circle cx="12" cy="13.5" r="3.5"/></svg>';
const CHECK = '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M5 12.5l4.5 4.5L19 7.5"/></svg>';

/** The form. Words the script needs are handed over as JSON in a data block (not run, not inline script). */
export function formPage(look: SubmitLook, page: FormPage, scriptSrc: string | null): RenderedPage {
  const w = look.words;
  const mb = Math.floor(page.maxBytes / 1024 / 1024);
  const scriptWords = {
    choosePhoto: w.choosePhoto,
    changePhoto: w.changePhoto,
    checking: w.checking,
    sending: w.sending,
    donePublished: w.donePublished,
    doneQueued: w.doneQueued,
    copied: w.copied,
    empty: w.errors.empty,
    name: fillWords(w.errors.name, { n: UPLOAD_LIMITS.nameMax }),
    consent: w.errors.consent,
    challenge: w.errors.challenge,
    tooLarge: fillWords(w.errors.too_large, { mb }),
    unavailable: w.errors.unavailable,
  };
  const heading = look.title ?? w.heading;
  const body = `<form id="upload" method="post" action="${escapeHtml(page.action)}" enctype="multipart/form-data" data-max-bytes="${page.maxBytes}" novalidate>
<h1>${escapeHtml(heading)}</h1>
<p class="intro">${escapeHtml(w.intro)}</p>
<p id="problem" class="problem" role="alert" tabindex="-1" hidden></p>
<div class="field">
<span class="label" id="photo-label">${escapeHtml(w.photo)}</span>
<label class="pick">${CAMERA}<span id="pick-label">${escapeHtml(w.choosePhoto)}</span><input class="file" id="photo" name="photo" type="file" accept="image/*,.heic,.heif" aria-labelledby="photo-label pick-label" aria-describedby="photo-hint"></label>
<span class="hint" id="photo-hint">${escapeHtml(fillWords(w.photoHint, { mb }))}</span>
<div class="preview" id="preview" hidden><img alt=""></div>
</div>
<div class="field">
<label class="name" for="text">${escapeHtml(w.text)}</label>
<textarea id="text" name="text" maxlength="${UPLOAD_LIMITS.textMax}" aria-describedby="text-hint"></textarea>
<span class="hint" id="text-hint">${escapeHtml(fillWords(w.textHint, { n: UPLOAD_LIMITS.textMax }))}</span>
</div>
<div class="field">
<label class="name" for="name">${escapeHtml(w.name)}</label>
<input id="name" name="name" type="text" maxlength="${UPLOAD_LIMITS.nameMax}" autocomplete="name" required aria-describedby="name-hint">
<span class="hint" id="name-hint">${escapeHtml(w.nameHint)}</span>
</div>
<div class="field">
${page.terms ? `<div class="terms" role="region" aria-label="${escapeHtml(w.terms)}" tabindex="0">${escapeHtml(page.terms)}</div>` : ''}
<label class="consent"><input id="consent" name="consent" type="checkbox" value="yes" required><span>${escapeHtml(page.consentText)}</span></label>
</div>
<noscript><p>${escapeHtml(w.needsScript)}</p></noscript>
<button class="button" id="send" type="submit">${escapeHtml(w.submit)}</button>
<div class="progress" id="progress" hidden><span id="bar"></span></div>
<p class="status" id="status" role="status" aria-live="polite"></p>
</form>
<section class="done" id="done" hidden>
<div class="check">${CHECK}</div>
<h1 id="done-title" tabindex="-1">${escapeHtml(w.doneTitle)}</h1>
<p class="intro" id="done-text"></p>
<div class="keep">
<h2>${escapeHtml(w.deleteLinkTitle)}</h2>
<p>${escapeHtml(w.deleteLinkHelp)}</p>
<input id="delete-link" type="url" readonly aria-label="${escapeHtml(w.deleteLinkTitle)}">
<button class="button" id="copy" type="button">${escapeHtml(w.copy)}</button>
</div>
<button class="button quiet" id="again" type="button">${escapeHtml(w.another)}</button>
</section>
<script type="application/json" id="words">${JSON.stringify(scriptWords).replace(/</g, '\\u003c')}</script>`;
  return shell(look, heading, body, scriptSrc);
}

/** A page of a heading, a sentence and, optionally, one form with one button (the delete confirmation). */
export function messagePage(
  look: SubmitLook,
  title: string,
  text: string,
  button: { action: string; label: string } | null = null,
): RenderedPage {
  const form = button
    ? `<form method="post" action="${escapeHtml(button.action)}" enctype="multipart/form-data" class="stack"><button class="button" type="submit">${escapeHtml(button.label)}</button></form>`
    : '';
  return shell(look, title, `<h1>${escapeHtml(title)}</h1>\n<p class="intro">${escapeHtml(text)}</p>\n${form}`, null);
}
