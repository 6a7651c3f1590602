// Embed: the wall's own page to open, link to or print as a QR code
// (ui/OpenWall.tsx), and the snippet of a wall for any web page (wall,
// publishable key, layout, theme, limit, columns), a Copy button and a live
// preview — the same <wallery-wall> element, loaded from this server's
// /embed/v1/wallery.js (the console's CSP allows scripts of its own origin).
// A key made here, or one this tab knows for the wall, fills the key field.
import { useEffect, useMemo, useRef } from 'react';
import { useCreatePublishableKey } from '../api/queries/keys';
import { useChosenWall } from '../api/queries/walls';
import { useMe } from '../auth';
import { href } from '../router';
import { CopyButton } from '../ui/Copy';
import { Options, SelectField, TextField } from '../ui/fields';
import { useForm } from '../ui/form';
import { Button, ErrorNote, QueryStatus, ScreenTitle } from '../ui/kit';
import { OpenWall, rememberKey, useWallKey, wallerBase } from '../ui/OpenWall';
import { WallPicker } from '../ui/WallPicker';
import './Embed.css';

const LAYOUTS = ['masonry', 'grid', 'carousel', 'event'] as const;
const THEMES = ['light', 'dark', 'auto'] as const;
let scriptLoading: HTMLScriptElement | null = null;
function loadEmbedScript() {
  if (scriptLoading || customElements.get('wallery-wall')) return;
  scriptLoading = document.createElement('script');
  scriptLoading.type = 'module';
  scriptLoading.src = `${wallerBase()}/embed/v1/wallery.js`;
  document.head.append(scriptLoading);
}

interface EmbedOptions {
  key: string;
  layout: string;
  theme: string;
  limit: string;
  columns: string;
}

/** The options typed as numbers: what the embed takes, and what to say otherwise. */
const NUMBERS = [
  {
    name: 'limit',
    label: 'Posts per page',
    valid: /^(?:[1-9]\d?|100)$/,
    problem: 'From 1 to 100, or empty for 20.',
    hint: '1–100; empty: 20.',
  },
  {
    name: 'columns',
    label: 'Columns at most',
    valid: /^[1-8]$/,
    problem: 'From 1 to 8, or empty for the wall’s setting.',
    hint: '1–8; empty: the wall’s setting.',
  },
] as const;
const isBad = (o: EmbedOptions, n: (typeof NUMBERS)[number]) =>
  o[n.name].trim() !== '' && !n.valid.test(o[n.name].trim());

const attrsOf = (wallId: number, o: EmbedOptions): [string, string][] =>
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
  const { wall, walls, query } = useChosenWall(wallId);
  const {
    form: o,
    field,
    set,
  } = useForm<EmbedOptions>({
    key: '',
    layout: 'masonry',
    theme: 'light',
    limit: '',
    columns: '',
  });
  const makeKey = useCreatePublishableKey({
    beforeRefresh: (key) => {
      rememberKey(key.wallId, key.key);
      set({ key: key.key });
    },
  });
  // a key this tab knows for the wall (made here or for its page) and the wall has not revoked
  const known = useWallKey(wall?.id).key;
  useEffect(() => {
    if (known) set({ key: known });
    // once per wall and known key (`set` is a new function each render)
  }, [wall?.id, known]);
  const keyOk = /^pk_\S+$/.test(o.key.trim());
  const numbersOk = NUMBERS.every((n) => !isBad(o, n));
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
      <QueryStatus
        query={query}
        what="walls"
        empty={!wall && 'There is no such wall, or this token does not see it.'}
      />
      {wall && (
        <div className="panel">
          <OpenWall key={wall.id} wall={wall} />
        </div>
      )}
      {wall && (
        <div className="embed-layout">
          <form className="panel embed-form" onSubmit={(e) => e.preventDefault()} noValidate>
            <WallPicker walls={walls} value={wall.id} link={href.embed} />
            <TextField
              label="Publishable key"
              {...field('key')}
              className="mono"
              placeholder="pk_…"
              autoComplete="off"
              spellCheck={false}
              error={o.key.trim() !== '' && !keyOk ? 'A publishable key starts with pk_.' : undefined}
              hint="Paste a key of this wall (its secret is shown only when it is made), or make one here."
            />
            {me.can('POST /walls/{wallId}/publishable-keys') && (
              <Button onClick={() => makeKey.mutate({ wallId: wall.id })} disabled={makeKey.isPending}>
                Make a publishable key for this wall
              </Button>
            )}
            <ErrorNote error={makeKey.error} title="The key was not made" />
            <SelectField label="Layout" {...field('layout')}>
              <Options of={LAYOUTS.map((l) => [l, l])} />
            </SelectField>
            <SelectField label="Theme" {...field('theme')}>
              <Options of={THEMES.map((t) => [t, t === 'auto' ? 'auto (the visitor’s setting)' : t])} />
            </SelectField>
            {NUMBERS.map((n) => (
              <TextField
                key={n.name}
                label={n.label}
                inputMode="numeric"
                {...field(n.name)}
                error={isBad(o, n) ? n.problem : undefined}
                hint={n.hint}
              />
            ))}
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
              {keyOk && numbersOk ? (
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
