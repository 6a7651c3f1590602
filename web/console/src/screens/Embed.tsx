// Embed: the snippet of a wall for any web page (wall, publishable key,
// layout, theme, limit, columns), a Copy button and a live preview — the
// same <wallery-wall> element, loaded from this server's /embed/v1/wallery.js
// (the console's CSP allows scripts of its own origin).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { api, unwrap } from '../api/client';
import { useMe } from '../auth';
import { href } from '../router';
import { CopyButton } from '../ui/Copy';
import { Button, Empty, ErrorNote, Loading, ScreenTitle, SelectField, TextField } from '../ui/kit';
import { useWalls } from './Walls';
import './phase2.css';

const LAYOUTS = ['masonry', 'grid', 'carousel', 'event'] as const;
const THEMES = ['light', 'dark', 'auto'] as const;
/** where Wallery is: the console is at <base>/console/ */
const wallerBase = () => new URL('../', document.baseURI).href.replace(/\/$/, '');

let scriptLoading: HTMLScriptElement | null = null;
function loadEmbedScript() {
  if (scriptLoading || customElements.get('wallery-wall')) return;
  scriptLoading = document.createElement('script');
  scriptLoading.type = 'module';
  scriptLoading.src = `${wallerBase()}/embed/v1/wallery.js`;
  document.head.append(scriptLoading);
}

interface Options {
  key: string;
  layout: string;
  theme: string;
  limit: string;
  columns: string;
}

const attrsOf = (wallId: number, o: Options): [string, string][] =>
  (
    [
      ['wall', String(wallId)],
      ['key', o.key.trim()],
      ['layout', o.layout],
      ['theme', o.theme],
      ['limit', o.limit.trim()],
      ['columns', o.columns.trim()],
    ] as [string, string][]
  ).filter(([, v]) => v !== '');

const escapeAttr = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

export function Embed({ wallId }: { wallId: number | null }) {
  const me = useMe();
  const walls = useWalls();
  const list = (walls.data?.pages.flatMap((p) => p.data) ?? []).filter((w) => !w.deleted);
  const wall = wallId === null ? list[0] : list.find((w) => w.id === wallId);
  const [o, setO] = useState<Options>({ key: '', layout: 'masonry', theme: 'light', limit: '', columns: '' });
  const queryClient = useQueryClient();
  const makeKey = useMutation({
    mutationFn: (id: number) =>
      unwrap(api.POST('/walls/{wallId}/publishable-keys', { params: { path: { wallId: String(id) } }, body: {} })),
    onSuccess: async (key) => {
      setO((old) => ({ ...old, key: key.key }));
      await queryClient.invalidateQueries({ queryKey: ['publishable-keys', key.wallId] });
    },
  });
  const keyOk = /^pk_\S+$/.test(o.key.trim());
  const limitBad = o.limit.trim() !== '' && !/^(?:[1-9]\d?|100)$/.test(o.limit.trim());
  const columnsBad = o.columns.trim() !== '' && !/^[1-8]$/.test(o.columns.trim());
  const snippet = useMemo(() => {
    if (!wall) return '';
    const attrs = attrsOf(wall.id, { ...o, key: keyOk ? o.key : 'pk_…' })
      .map(([k, v]) => ` ${k}="${escapeAttr(v)}"`)
      .join('');
    return `<script type="module" src="${wallerBase()}/embed/v1/wallery.js"></script>\n<wallery-wall${attrs}></wallery-wall>`;
  }, [wall, o, keyOk]);

  return (
    <section className="screen">
      <ScreenTitle>Embed a wall</ScreenTitle>
      <p className="muted">
        Two lines put a live wall on any web page. The page reads the wall with a publishable key (<code>pk_…</code>
        ), which can only read that wall — never put a user key in a page.
      </p>
      {walls.isPending && <Loading what="walls" />}
      <ErrorNote error={walls.error} title="The walls could not be loaded" />
      {walls.isSuccess && !wall && <Empty>There is no such wall, or this token does not see it.</Empty>}
      {wall && (
        <div className="embed-layout">
          <form className="panel embed-form" onSubmit={(e) => e.preventDefault()} noValidate>
            <SelectField
              label="Wall"
              value={wall.id}
              onChange={(e) => {
                location.hash = href.embed(Number(e.target.value));
              }}
            >
              {list.map((w) => (
                <option key={w.id} value={w.id}>
                  {w.name} (#{w.id})
                </option>
              ))}
            </SelectField>
            <TextField
              label="Publishable key"
              value={o.key}
              onChange={(e) => setO({ ...o, key: e.target.value })}
              className="mono"
              placeholder="pk_…"
              autoComplete="off"
              spellCheck={false}
              error={o.key.trim() !== '' && !keyOk ? 'A publishable key starts with pk_.' : undefined}
              hint="Paste a key of this wall (its secret is shown only when it is made), or make one here."
            />
            {me.can('POST /walls/{wallId}/publishable-keys') && (
              <Button onClick={() => makeKey.mutate(wall.id)} disabled={makeKey.isPending}>
                Make a publishable key for this wall
              </Button>
            )}
            <ErrorNote error={makeKey.error} title="The key was not made" />
            <SelectField label="Layout" value={o.layout} onChange={(e) => setO({ ...o, layout: e.target.value })}>
              {LAYOUTS.map((l) => (
                <option key={l} value={l}>
                  {l}
                </option>
              ))}
            </SelectField>
            <SelectField label="Theme" value={o.theme} onChange={(e) => setO({ ...o, theme: e.target.value })}>
              {THEMES.map((t) => (
                <option key={t} value={t}>
                  {t === 'auto' ? 'auto (the visitor’s setting)' : t}
                </option>
              ))}
            </SelectField>
            <TextField
              label="Posts per page"
              inputMode="numeric"
              value={o.limit}
              onChange={(e) => setO({ ...o, limit: e.target.value })}
              error={limitBad ? 'From 1 to 100, or empty for 20.' : undefined}
              hint="1–100; empty: 20."
            />
            <TextField
              label="Columns at most"
              inputMode="numeric"
              value={o.columns}
              onChange={(e) => setO({ ...o, columns: e.target.value })}
              error={columnsBad ? 'From 1 to 8, or empty for the wall’s setting.' : undefined}
              hint="1–8; empty: the wall’s setting."
            />
          </form>
          <div className="embed-out">
            <section className="panel" aria-labelledby="snippet-title">
              <div className="screen-head">
                <h2 id="snippet-title">Snippet</h2>
                {keyOk && <CopyButton text={snippet} what="snippet" />}
              </div>
              <label htmlFor="embed-snippet" className="sr-only">
                The snippet to paste into a web page
              </label>
              <textarea id="embed-snippet" className="snippet mono" readOnly value={snippet} rows={4} />
              {!keyOk && <p className="hint">Add a publishable key to get a working snippet and the preview.</p>}
            </section>
            <section className="panel" aria-labelledby="preview-title">
              <h2 id="preview-title">Preview</h2>
              {keyOk && !limitBad && !columnsBad ? (
                <Preview attrs={attrsOf(wall.id, o)} />
              ) : (
                <p className="muted">The preview shows the wall once the key and options are valid.</p>
              )}
            </section>
          </div>
        </div>
      )}
    </section>
  );
}

/** The element itself, made with the snippet's attributes (remade when they change). */
function Preview({ attrs }: { attrs: [string, string][] }) {
  const box = useRef<HTMLDivElement>(null);
  const signature = JSON.stringify(attrs);
  useEffect(() => {
    loadEmbedScript();
    const el = document.createElement('wallery-wall');
    for (const [k, v] of JSON.parse(signature) as [string, string][]) el.setAttribute(k, v);
    // an operator looking at the preview is not an audience: it counts nothing
    el.setAttribute('analytics', 'off');
    box.current?.replaceChildren(el);
  }, [signature]);
  return <div ref={box} className="preview" data-testid="embed-preview" />;
}
