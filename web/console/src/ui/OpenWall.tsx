// Open the wall: its hosted page (/walls/{id}?key=pk_…) and its event screen
// (the same with layout=event) in a new tab, the link to copy, and a QR code
// of the link (SVG, downloadable) for posters and screens. The page needs a
// publishable key of the wall; Wallery keeps only a key's hash, so the
// console remembers the keys it made or was given in this tab
// (sessionStorage: a publishable key is public, made to be in pages and
// links) and uses one only while the wall lists it as not revoked. Without
// one, a key is made only once the operator agrees, told what it allows.
// OpenWall is the panel (the Embed screen, a wall's row's dialog);
// OpenWallButton opens it in a dialog from a screen's head.
import { useEffect, useId, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { qrCode } from '../../../embed/qr';
import { apiErrorOf, type Wall } from '../api/client';
import { fieldErrorText } from '../api/messages';
import { useCreatePublishableKey, usePublishableKeys } from '../api/queries/keys';
import { useMe } from '../auth';
import { CopyButton } from './Copy';
import { TextAreaField, TextField } from './fields';
import { onSubmit } from './form';
import { Announce, Button, Dialog, ErrorNote, Loading } from './kit';

/** Where Wallery is: the console is at <base>/console/. */
export const wallerBase = () => new URL('../', document.baseURI).href.replace(/\/$/, '');

// ---------- the publishable keys this tab knows ----------

const STORE = 'wallery.console.publishable-keys';
const listeners = new Set<() => void>();

function readKeys(): Record<string, string> {
  try {
    return JSON.parse(sessionStorage.getItem(STORE) ?? '{}') as Record<string, string>;
  } catch {
    return {};
  }
}

/** A publishable key of a wall this tab made or was given; its plaintext exists nowhere else. */
export function rememberKey(wallId: number, key: string): void {
  sessionStorage.setItem(STORE, JSON.stringify({ ...readKeys(), [wallId]: key }));
  for (const l of listeners) l();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The key this tab knows for the wall (not checked against the wall's keys: see useWallKey). */
export function useRememberedKey(wallId: number | undefined): string | null {
  const all = useSyncExternalStore(subscribe, () => sessionStorage.getItem(STORE) ?? '{}');
  if (wallId === undefined) return null;
  try {
    return (JSON.parse(all) as Record<string, string>)[wallId] ?? null;
  } catch {
    return null;
  }
}

/** The key to open the wall with: a remembered one the wall still lists as not revoked (none while there is no wall). */
export function useWallKey(wallId: number | undefined) {
  const keys = usePublishableKeys(wallId);
  const remembered = useRememberedKey(wallId);
  const active = (keys.data?.data ?? []).filter((k) => k.revokedAt === null);
  const live = (key: string | null) => (key && active.some((k) => key.startsWith(k.prefix)) ? key : null);
  return { key: live(remembered), live, active, query: keys };
}

// ---------- links and the QR code ----------

export type WallPage = 'wall' | 'event';

/**
 * The hosted page's URL. The wall page follows the wall's layout when it has
 * one other than the event screen (so a printed code shows a later change);
 * otherwise (the hosted page's own default is the event screen) masonry.
 */
export function wallPageUrl(wall: Pick<Wall, 'id' | 'layout'>, key: string, page: WallPage): string {
  const url = new URL(`walls/${wall.id}`, `${wallerBase()}/`);
  url.searchParams.set('key', key);
  if (page === 'event') url.searchParams.set('layout', 'event');
  else if (!wall.layout || wall.layout === 'event') url.searchParams.set('layout', 'masonry');
  return url.href;
}

const escapeXml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

/** The QR code of `text` as an SVG file: black modules on white, 10 px a module, its text as the title. */
export function qrSvgFile(text: string): string {
  const { size, path } = qrCode(text);
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" width="${size * 10}" height="${size * 10}" shape-rendering="crispEdges">` +
    `<title>${escapeXml(text)}</title><rect width="${size}" height="${size}" fill="#ffffff"/><path d="${path}" fill="#000000"/></svg>\n`
  );
}

/** The code drawn in the page (React elements: no markup from strings). */
function QrImage({ text, label }: { text: string; label: string }) {
  const { size, path } = useMemo(() => qrCode(text), [text]);
  return (
    <svg className="qr" viewBox={`0 0 ${size} ${size}`} role="img" aria-label={label} shapeRendering="crispEdges">
      <rect width={size} height={size} fill="#ffffff" />
      <path d={path} fill="#000000" />
    </svg>
  );
}

// ---------- the panel ----------

type Intent = 'wall' | 'event' | 'copy' | 'qr';
const INTENT_ACTION: Record<Intent, string> = {
  wall: 'Make the key, then open the wall',
  event: 'Make the key, then open the event screen',
  copy: 'Make the key, then copy the link',
  qr: 'Make the key, then show the QR code',
};

/**
 * The wall's hosted page and event screen: open, copy the link, QR code.
 * `heading`: the panel's own heading (false inside a dialog that names it).
 */
export function OpenWall({ wall, heading = true }: { wall: Pick<Wall, 'id' | 'name' | 'layout'>; heading?: boolean }) {
  const me = useMe();
  const titleId = useId();
  const { key, query } = useWallKey(wall.id);
  const [asking, setAsking] = useState<Intent | null>(null);
  const [page, setPage] = useState<WallPage>('wall');
  const [qrShown, setQrShown] = useState(false);
  const [said, setSaid] = useState('');
  /** the control to focus once it is drawn (after a key is made: the action asked for) */
  const [focusTo, setFocusTo] = useState<string | null>(null);
  const panel = useRef<HTMLElement>(null);
  const mayMake = me.can('POST /walls/{wallId}/publishable-keys');
  useEffect(() => {
    const target = focusTo && panel.current?.querySelector<HTMLElement>(`[data-open="${focusTo}"]`);
    if (!target) return;
    target.focus();
    setFocusTo(null);
  }, [focusTo, key, qrShown]);

  /** After the key: the action asked for is one step away, and focus is on it. */
  const ready = (intent: Intent) => {
    setAsking(null);
    if (intent === 'qr') setQrShown(true);
    if (intent === 'event') setPage('event');
    setSaid(
      intent === 'qr'
        ? 'The key is ready: the QR code is shown below.'
        : intent === 'copy'
          ? 'The key is ready: copy the link below.'
          : `The key is ready: press “${intent === 'event' ? 'Open event screen' : 'Open wall'}” to open it in a new tab.`,
    );
    setFocusTo(intent === 'qr' ? 'download' : intent);
  };
  const ask = (intent: Intent) => () => {
    setSaid('');
    setAsking(intent);
  };

  const url = key ? wallPageUrl(wall, key, page) : '';
  const file = `wall-${wall.id}${page === 'event' ? '-event' : ''}-qr.svg`;
  return (
    <section ref={panel} className="open-wall" aria-labelledby={heading ? titleId : undefined} data-testid="open-wall">
      {heading && <h2 id={titleId}>Open the wall</h2>}
      <p className="muted">
        The wall’s own page, for a link, a big screen or a poster: anyone with the link sees its approved posts, live.
      </p>
      {query.isPending && <Loading what="the wall’s keys" />}
      <ErrorNote error={query.error} title="The wall’s keys could not be read" />
      <div className="open-wall-actions">
        {key ? (
          <>
            <a
              className="btn btn-primary"
              href={wallPageUrl(wall, key, 'wall')}
              target="_blank"
              rel="noopener"
              data-open="wall"
            >
              Open wall<span className="sr-only"> {wall.name} (new tab)</span>
            </a>
            <a
              className="btn btn-secondary"
              href={wallPageUrl(wall, key, 'event')}
              target="_blank"
              rel="noopener"
              data-open="event"
            >
              Open event screen<span className="sr-only"> of {wall.name} (new tab)</span>
            </a>
            <Button aria-expanded={qrShown} onClick={() => setQrShown(!qrShown)}>
              {qrShown ? 'Hide QR code' : 'QR code'}
            </Button>
          </>
        ) : (
          query.isSuccess && (
            <>
              <Button variant="primary" onClick={ask('wall')} data-open="ask-wall">
                Open wall<span className="sr-only"> {wall.name}</span>
              </Button>
              <Button onClick={ask('event')} data-open="ask-event">
                Open event screen<span className="sr-only"> of {wall.name}</span>
              </Button>
              <Button onClick={ask('copy')} data-open="ask-copy">
                Copy link
              </Button>
              <Button onClick={ask('qr')} data-open="ask-qr">
                QR code
              </Button>
            </>
          )
        )}
      </div>
      <Announce message={said} />
      {asking && (
        <MakeKey
          wall={wall}
          intent={asking}
          mayMake={mayMake}
          onReady={ready}
          onCancel={() => {
            // back to the button that asked
            setFocusTo(`ask-${asking}`);
            setAsking(null);
          }}
        />
      )}
      {key && (
        <div className="open-wall-link">
          <fieldset className="open-wall-page">
            <legend>Link to</legend>
            {(['wall', 'event'] as const).map((p) => (
              <label key={p}>
                <input
                  type="radio"
                  name={`open-wall-page-${wall.id}`}
                  checked={page === p}
                  onChange={() => setPage(p)}
                />{' '}
                {p === 'wall' ? 'The wall' : 'The event screen'}
              </label>
            ))}
          </fieldset>
          <div className="secret-row">
            <label htmlFor={`${titleId}-link`} className="sr-only">
              Link to {page === 'wall' ? 'the wall' : 'the event screen'}
            </label>
            <input
              id={`${titleId}-link`}
              readOnly
              value={url}
              className="mono"
              data-open="copy"
              onFocus={(e) => e.currentTarget.select()}
            />
            <CopyButton text={url} what={page === 'wall' ? 'link to the wall' : 'link to the event screen'} />
          </div>
          {qrShown && (
            <figure className="open-wall-qr">
              <QrImage
                text={url}
                label={`QR code of the link to ${page === 'wall' ? 'the wall' : 'the event screen'}`}
              />
              <figcaption>
                <p>
                  Scanned, it opens {page === 'wall' ? 'the wall' : 'the event screen'} of “{wall.name}”. Print it on
                  posters, show it on screens.
                </p>
                <a
                  className="btn btn-secondary"
                  href={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(qrSvgFile(url))}`}
                  download={file}
                  data-open="download"
                >
                  Download QR code (SVG)
                </a>
              </figcaption>
            </figure>
          )}
        </div>
      )}
    </section>
  );
}

/**
 * A button that opens the panel in a dialog, for a screen's head (a wall's
 * screens): "Open the wall", then the page, the event screen, the link and
 * the QR code.
 */
export function OpenWallButton({ wall }: { wall: Pick<Wall, 'id' | 'name' | 'layout'> }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>
        Open the wall<span className="sr-only"> {wall.name}: its page, event screen, link and QR code</span>
      </Button>
      <Dialog title={`Open “${wall.name}”`} open={open} onClose={() => setOpen(false)}>
        <OpenWall wall={wall} heading={false} />
      </Dialog>
    </>
  );
}

/**
 * The consent to a new key: what it is and allows (the origins, if the
 * operator limits them), then make it — or use a key of this wall one has.
 */
function MakeKey({
  wall,
  intent,
  mayMake,
  onReady,
  onCancel,
}: {
  wall: Pick<Wall, 'id' | 'name'>;
  intent: Intent;
  mayMake: boolean;
  onReady(intent: Intent): void;
  onCancel(): void;
}) {
  const titleId = useId();
  const [origins, setOrigins] = useState('');
  const [pasted, setPasted] = useState('');
  const [pastedError, setPastedError] = useState<string | undefined>();
  const { live, query } = useWallKey(wall.id);
  const create = useCreatePublishableKey({
    beforeRefresh: (made) => rememberKey(made.wallId, made.key),
    afterRefresh: () => onReady(intent),
  });
  const list = origins
    .split(/[\s,]+/)
    .map((o) => o.trim())
    .filter(Boolean);
  const make = onSubmit(() => create.mutate({ wallId: wall.id, ...(list.length ? { origins: list } : {}) }));
  const use = onSubmit(() => {
    const given = pasted.trim();
    if (!/^pk_\S+$/.test(given)) return setPastedError('A publishable key starts with pk_.');
    if (!live(given))
      return setPastedError('That is not a key of this wall, or it was revoked: make a new one, or paste another.');
    setPastedError(undefined);
    rememberKey(wall.id, given);
    onReady(intent);
  });
  const originsError =
    (apiErrorOf(create.error)?.fieldErrors ?? [])
      .filter((e) => e.field.startsWith('origins'))
      .map(fieldErrorText)
      .join(' ') || undefined;
  const box = useRef<HTMLDivElement>(null);
  // the consent opens where the operator is: its first field
  useEffect(() => box.current?.querySelector<HTMLElement>('textarea, input')?.focus(), []);
  return (
    <div className="open-wall-consent" role="group" aria-labelledby={titleId} ref={box}>
      <h3 id={titleId}>{mayMake ? 'Make a public key for this wall?' : 'This wall’s page needs a key'}</h3>
      <p>
        The wall’s page reads “{wall.name}” with a <strong>publishable key</strong> (<code>pk_…</code>), which is part
        of the link: anyone who has the link or scans the code can see the wall’s approved posts — nothing else, and
        they cannot change anything. Revoke it any time under Keys &amp; usage.
      </p>
      {mayMake ? (
        <form onSubmit={make} noValidate>
          <ErrorNote error={create.error} title="The key was not made" />
          <TextAreaField
            label="Only these sites may show the wall with this key (optional)"
            value={origins}
            onChange={(e) => setOrigins(e.target.value)}
            error={originsError}
            hint="One site per line, such as https://shop.example. Empty: any site may embed or frame the wall with this key. The link itself opens anywhere."
            rows={2}
          />
          <p className="open-wall-allows">
            {list.length === 0
              ? 'This key will allow any site to show the wall.'
              : `This key will allow only ${list.join(', ')} to show the wall (and its own page).`}
          </p>
          <div className="form-actions">
            <Button type="submit" variant="primary" disabled={create.isPending}>
              {INTENT_ACTION[intent]}
            </Button>
            <Button onClick={onCancel}>Cancel</Button>
          </div>
        </form>
      ) : (
        <p>
          Your role cannot make keys: ask an editor or admin for a publishable key of this wall, and paste it below.
        </p>
      )}
      <form onSubmit={use} noValidate className="open-wall-paste">
        <TextField
          label="Or use a key of this wall you have"
          value={pasted}
          onChange={(e) => setPasted(e.target.value)}
          error={pastedError}
          className="mono"
          placeholder="pk_…"
          autoComplete="off"
          spellCheck={false}
        />
        <div className="form-actions">
          <Button type="submit" disabled={query.isPending}>
            Use this key
          </Button>
          {!mayMake && <Button onClick={onCancel}>Cancel</Button>}
        </div>
      </form>
    </div>
  );
}
