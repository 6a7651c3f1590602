// The submission page's script (src/http/submit/page.ts renders the page; the
// build makes this assets/submit-HASH.js, allowed by the page's
// `script-src 'self'`). It solves the page's proof-of-work while the visitor
// fills the form, shows the chosen photo, makes a large photo smaller, sends
// the form with a progress bar and shows the private deletion link. No
// framework: a slow phone connection loads it at once.
import { shrinkPhoto } from './shrink.js';
import { altchaPayload, solveChallenge, type Challenge } from './solve.js';

/** The page's words the script shows (the page's JSON block `words`). */
interface Words {
  choosePhoto: string;
  changePhoto: string;
  checking: string;
  sending: string;
  donePublished: string;
  doneQueued: string;
  copied: string;
  empty: string;
  name: string;
  consent: string;
  challenge: string;
  tooLarge: string;
  unavailable: string;
}

/** What a 201 answers. */
interface Uploaded {
  state?: string;
  deleteUrl?: string;
}

const byId = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

function start(form: HTMLFormElement) {
  const words = JSON.parse(byId('words').textContent ?? '{}') as Words;
  const base = form.getAttribute('action') ?? '';
  const maxBytes = Number(form.dataset.maxBytes);
  const photo = byId<HTMLInputElement>('photo');
  const preview = byId('preview');
  const pick = byId('pick-label');
  const alertBox = byId('problem');
  const progress = byId('progress');
  const bar = byId('bar');
  const button = byId<HTMLButtonElement>('send');
  const status = byId('status');
  let previewUrl: string | null = null;

  /** the solved challenge (the form field), solved again after every attempt */
  let solving = solve();
  /** a fresh challenge, solved: the form field, or null when it could not be had */
  function solve(): Promise<string | null> {
    return fetch(`${base}/challenge`, { cache: 'no-store' })
      .then((r) => {
        if (!r.ok) throw new Error('challenge');
        return r.json() as Promise<Challenge>;
      })
      .then(async (c) => {
        const n = await solveChallenge(c);
        return n === null ? null : altchaPayload(c, n);
      })
      .catch(() => null);
  }

  function show(message: string) {
    alertBox.textContent = message;
    alertBox.hidden = message === '';
    if (message !== '') alertBox.focus();
  }
  function busy(on: boolean, text = '') {
    button.disabled = on;
    status.textContent = text;
    progress.hidden = !on;
    if (!on) bar.style.width = '0';
  }
  const chosen = () => photo.files?.[0] ?? null;

  photo.addEventListener('change', () => {
    const f = chosen();
    if (previewUrl) URL.revokeObjectURL(previewUrl);
    previewUrl = null;
    if (!f) {
      preview.hidden = true;
      pick.textContent = words.choosePhoto;
      return;
    }
    previewUrl = URL.createObjectURL(f);
    preview.querySelector('img')!.src = previewUrl;
    preview.hidden = false;
    pick.textContent = words.changePhoto;
    show('');
  });

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void send();
  });

  async function send() {
    const original = chosen();
    const text = byId<HTMLTextAreaElement>('text').value;
    const name = byId<HTMLInputElement>('name').value;
    const consent = byId<HTMLInputElement>('consent').checked;
    if (!original && text.trim() === '') return show(words.empty);
    if (name.trim() === '') return show(words.name);
    if (!consent) return show(words.consent);
    show('');
    busy(true, words.checking);
    const [file, solution] = await Promise.all([original ? shrinkPhoto(original) : null, solving]);
    if (file && file.size > maxBytes) {
      busy(false);
      return show(words.tooLarge);
    }
    if (!solution) {
      busy(false);
      solving = solve();
      return show(words.challenge);
    }
    const data = new FormData();
    data.append('altcha', solution);
    data.append('name', name);
    data.append('text', text);
    data.append('consent', consent ? 'yes' : '');
    if (file) data.append('photo', file, file.name);
    status.textContent = words.sending;
    const xhr = new XMLHttpRequest();
    xhr.open('POST', base);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) bar.style.width = `${Math.round((e.loaded / e.total) * 100)}%`;
    };
    xhr.onload = () => {
      let body: Uploaded & { responseMessage?: string } = {};
      try {
        body = JSON.parse(xhr.responseText) as typeof body;
      } catch {
        body = {};
      }
      if (xhr.status === 201) return done(body);
      failed(body.responseMessage ?? words.unavailable);
    };
    xhr.onerror = () => failed(words.unavailable);
    xhr.send(data);
  }

  /** a refused or broken attempt: a fresh challenge for the next one */
  function failed(message: string) {
    busy(false);
    solving = solve();
    show(message);
  }

  function done(body: Uploaded) {
    form.hidden = true;
    byId('done-text').textContent = body.state === 'approved' ? words.donePublished : words.doneQueued;
    byId<HTMLInputElement>('delete-link').value = body.deleteUrl ?? '';
    byId('done').hidden = false;
    byId('done-title').focus();
  }

  const copy = byId<HTMLButtonElement>('copy');
  copy.addEventListener('click', () => {
    const link = byId<HTMLInputElement>('delete-link');
    link.select();
    const ok = () => {
      copy.textContent = words.copied;
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(link.value).then(ok, () => {
        document.execCommand('copy');
        ok();
      });
    } else {
      document.execCommand('copy');
      ok();
    }
  });
  byId('again').addEventListener('click', () => window.location.reload());
}

const form = document.getElementById('upload');
if (form instanceof HTMLFormElement) start(form);
