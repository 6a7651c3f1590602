// The embed snippet of a wall: a publishable key for the site's origin (made
// here, shown once, or pasted), layout and theme, the two lines to paste,
// and a live preview (the wall's hosted page, in a frame).
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, ApiError, unwrap } from '../api/client';
import { useMe } from '../auth';
import { Announce, Button, ErrorNote, SelectField, TextAreaField, TextField } from '../ui/kit';
import { WallHead } from '../ui/WallNav';

const LAYOUTS = ['masonry', 'grid', 'carousel', 'event'] as const;
const THEMES = ['auto', 'light', 'dark'] as const;

/** `https://shop.example` from what a person types (a URL or an origin), or null. */
function originOf(text: string): string | null {
  try {
    const url = new URL(text.trim());
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : null;
  } catch {
    return null;
  }
}

export function Embed({ wallId }: { wallId: number }) {
  const me = useMe();
  const [site, setSite] = useState('');
  const [key, setKey] = useState('');
  const [layout, setLayout] = useState<(typeof LAYOUTS)[number]>('masonry');
  const [theme, setTheme] = useState<(typeof THEMES)[number]>('auto');
  const [said, setSaid] = useState('');
  const make = useMutation({
    mutationFn: () => {
      const origin = originOf(site);
      if (!origin)
        throw new ApiError(400, 'enter the address of the site', [
          { field: 'origins', message: 'enter the site’s address, e.g. https://shop.example' },
        ]);
      // the console's own origin too, for the preview below
      const origins = [...new Set([origin, location.origin])];
      return unwrap(
        api.POST('/walls/{wallId}/publishable-keys', {
          params: { path: { wallId: String(wallId) } },
          body: { origins },
        }),
      );
    },
    onSuccess: (made) => {
      setKey(made.key);
      setSaid('Publishable key made. It is in the snippet below and shown only this once.');
    },
  });
  const err = make.error instanceof ApiError ? make.error : null;
  const script = new URL('../embed/v1/wallery.js', document.baseURI).href;
  const validKey = /^pk_[\x21-\x7e]{1,256}$/.test(key.trim());
  const snippet =
    `<script type="module" src="${script}"></script>\n` +
    `<wallery-wall wall="${wallId}" key="${validKey ? key.trim() : 'pk_…'}" layout="${layout}"${theme === 'auto' ? '' : ` theme="${theme}"`}></wallery-wall>`;
  const preview = validKey
    ? `../walls/${wallId}?${new URLSearchParams({ key: key.trim(), layout, ...(theme === 'auto' ? {} : { theme }) })}`
    : null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    make.mutate();
  };
  return (
    <section className="screen">
      <WallHead wallId={wallId} screen="embed" />
      <Announce message={said} />
      <div className="embed-grid">
        <div>
          {me.can('POST /walls/{wallId}/publishable-keys') && (
            <form className="panel" onSubmit={submit} noValidate aria-labelledby="make-key">
              <h2 id="make-key">A key for your site</h2>
              <ErrorNote error={make.error} title="The key was not made" />
              <TextField
                label="Site address"
                value={site}
                onChange={(e) => setSite(e.target.value)}
                placeholder="https://shop.example"
                error={err?.forField('origins')}
                hint="Only pages of this origin (and this console, for the preview) may show the wall with the key."
              />
              <Button type="submit" variant="primary" disabled={make.isPending}>
                Make publishable key
              </Button>
            </form>
          )}
          <div className="panel">
            <TextField
              label="Publishable key"
              value={key}
              onChange={(e) => setKey(e.target.value)}
              placeholder="pk_…"
              spellCheck={false}
              hint="Made above, or one made before (wallery walls keys create)."
            />
            <SelectField label="Layout" value={layout} onChange={(e) => setLayout(e.target.value as typeof layout)}>
              {LAYOUTS.map((l) => (
                <option key={l} value={l}>
                  {l}
                </option>
              ))}
            </SelectField>
            <SelectField label="Theme" value={theme} onChange={(e) => setTheme(e.target.value as typeof theme)}>
              {THEMES.map((t) => (
                <option key={t} value={t}>
                  {t === 'auto' ? 'auto (the visitor’s setting)' : t}
                </option>
              ))}
            </SelectField>
            <TextAreaField label="Snippet to paste into your page" value={snippet} readOnly rows={4} />
            <Button
              onClick={() =>
                void navigator.clipboard
                  ?.writeText(snippet)
                  .then(() => setSaid('Snippet copied.'))
                  .catch(() => setSaid('Copying was refused: select the snippet and copy it.'))
              }
              disabled={!validKey}
            >
              Copy snippet
            </Button>
          </div>
        </div>
        <div className="preview">
          <h2>Preview</h2>
          {preview ? (
            <iframe title="Preview of the wall" src={preview} />
          ) : (
            <p className="hint">Make or paste a publishable key to see the wall as a page will.</p>
          )}
        </div>
      </div>
    </section>
  );
}
