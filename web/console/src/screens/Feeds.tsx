// The feeds of a wall: add, edit, enable/disable with the connector settings
// of each kind, ingestion status in words (a failure as its cause and fix:
// api/messages.ts), and "Poll now" (what it did said in green, a failed
// poll in red).
import { useState } from 'react';
import { apiErrorOf, type Connector, type Feed, type FeedCreate, type PollResult } from '../api/client';
import { feedFailureText, fieldErrorText } from '../api/messages';
import { usePollFeed, useRefreshFeeds, useSaveFeed, useToggleFeed, useFeeds } from '../api/queries/feeds';
import { useMe } from '../auth';
import { CheckboxField, FormActions, Options, SelectField, TextField } from '../ui/fields';
import { onSubmit } from '../ui/form';
import { Button, Dialog, ErrorNote, NoneYet, QueryRows, When } from '../ui/kit';
import { WallHead } from '../ui/WallNav';

const KINDS = {
  rss: 'RSS or Atom feed',
  mastodon: 'Mastodon',
  bluesky: 'Bluesky',
  youtube: 'YouTube',
  lemmy: 'Lemmy',
  none: 'None (posts come from import or the API)',
} as const;
/** `other`: a connector of a network this form does not edit (yet): kept as it is */
type Kind = keyof typeof KINDS | 'other';
const isFormKind = (kind: string): kind is keyof typeof KINDS => Object.hasOwn(KINDS, kind);
/** the networks of the connectors this form keeps without editing them */
const OTHER_NETWORKS: Record<string, string> = { x: 'X', reddit: 'Reddit', tumblr: 'Tumblr', flickr: 'Flickr' };
/** how often the list is read again: the ingestion status moves on its own (ms) */
const STATUS_REFRESH = 15_000;

/** What a feed collects, in a few words. */
function describeConnector(c: Feed['connector']): string {
  if (!c) return 'No connector: posts come from import or the API';
  switch (c.kind) {
    case 'rss':
      return `RSS/Atom: ${c.url}`;
    case 'mastodon':
      return `Mastodon ${c.instance}: ${c.hashtag ? `#${c.hashtag}` : `@${c.account ?? ''}`}`;
    case 'bluesky':
      return `Bluesky: ${c.actor ? `@${c.actor}` : `#${c.hashtag ?? ''}`}`;
    case 'youtube':
      return `YouTube ${c.channelId ? `channel ${c.channelId}` : `playlist ${c.playlistId ?? ''}`}`;
    case 'lemmy':
      return `Lemmy ${c.instance}: ${c.community}`;
    case 'x':
      return `X search: ${c.query}`;
    case 'reddit':
      return `Reddit ${c.subreddit ? `r/${c.subreddit}` : ''}${c.subreddit && c.search ? ': ' : ''}${c.search ? `“${c.search}”` : ''}`;
    case 'tumblr':
      return `Tumblr: #${c.tag}`;
    case 'flickr':
      return `Flickr ${c.userId ? `member ${c.userId}` : ''}${c.userId && c.tags ? ', ' : ''}${c.tags ? `tags ${c.tags}` : ''}`;
  }
}

function IngestStatus({ feed }: { feed: Feed }) {
  const s = feed.ingest;
  if (!feed.connector) return <span className="muted">Not polled (no connector)</span>;
  if (!feed.enabled) return <span className="badge">Disabled: not polled</span>;
  if (!s) return <span className="muted">Not polled yet</span>;
  return (
    <div className="ingest">
      {s.failing ? (
        <span className="badge badge-bad">Failing</span>
      ) : s.lastError ? (
        <span className="badge badge-warn">Last poll failed</span>
      ) : (
        <span className="badge badge-ok">OK</span>
      )}
      <span>
        Last poll: <When iso={s.lastPolledAt} />
      </span>
      <span>
        Next poll: <When iso={s.nextPollAt} empty="not scheduled" />
      </span>
      {s.lastError && (
        <span className="ingest-error">
          <span className="ingest-why">{feedFailureText(s.lastError)}</span>{' '}
          <span className="muted">
            {s.consecutiveFailures
              ? `${s.consecutiveFailures} failed poll${s.consecutiveFailures === 1 ? '' : 's'} in a row; `
              : ''}
            last error <When iso={s.lastErrorAt} />: <span className="mono">{s.lastError}</span>
          </span>
        </span>
      )}
      {s.lastWarning && <span className="muted">Warning: {s.lastWarning}</span>}
    </div>
  );
}

/** What a poll did, in words; a failed poll's cause and fix (api/messages.ts). */
function pollWords({ feed, poll }: PollResult): string {
  const n = poll.inserted;
  const words: Record<typeof poll.status, () => string> = {
    ok: () =>
      `“${feed.name}” polled: ${n} new post${n === 1 ? '' : 's'}${poll.updated ? `, ${poll.updated} updated` : ''}.`,
    not_modified: () => `“${feed.name}” polled: nothing new upstream.`,
    failed: () => (poll.message ? feedFailureText(poll.message) : 'See the feed’s last error below.'),
    deferred: () => `“${feed.name}” was not polled now: ${poll.message ?? ''}.`,
    skipped: () => `“${feed.name}” was not polled now: ${poll.message ?? ''}.`,
    scheduled: () => `“${feed.name}” will be polled by the ingestion worker at once (this server does not poll).`,
  };
  return words[poll.status]();
}

export function Feeds({ wallId }: { wallId: number }) {
  const me = useMe();
  const [editing, setEditing] = useState<{ feed: Feed | null } | null>(null);
  const [said, setSaid] = useState('');
  /** the last poll that failed: said in red, not with the successes */
  const [failed, setFailed] = useState<{ name: string; text: string } | null>(null);
  const feeds = useFeeds(wallId, { refetchInterval: STATUS_REFRESH });
  const refresh = useRefreshFeeds(wallId);
  const say = (text: string) => {
    setFailed(null);
    setSaid(text);
  };
  const poll = usePollFeed(wallId, {
    onSuccess: (result) => {
      if (result.poll.status === 'failed') {
        setSaid('');
        setFailed({ name: result.feed.name, text: pollWords(result) });
      } else say(pollWords(result));
    },
  });
  const toggle = useToggleFeed(wallId, {
    onSuccess: (feed) => say(`“${feed.name}” ${feed.enabled ? 'enabled' : 'disabled'}.`),
  });
  const list = feeds.data?.data ?? [];
  const mayAdd = me.can('POST /walls/{wallId}/feeds');
  const howToAdd = mayAdd && 'Add one to collect posts from RSS, Mastodon, Bluesky, YouTube or Lemmy.';
  return (
    <section className="screen">
      <WallHead wallId={wallId} screen="feeds" said={said}>
        {mayAdd && (
          <Button variant="primary" onClick={() => setEditing({ feed: null })}>
            Add feed
          </Button>
        )}
      </WallHead>
      {failed && (
        <div className="note note-error" role="alert">
          <strong>Polling “{failed.name}” failed.</strong> {failed.text}
        </div>
      )}
      <ErrorNote error={poll.error} title="The feed was not polled" />
      <ErrorNote error={toggle.error} title="The feed was not changed" />
      <QueryRows
        query={feeds}
        what="feeds"
        rows={list}
        empty={<NoneYet howToAdd={howToAdd}>This wall has no feeds yet.</NoneYet>}
      >
        <ul className="feeds">
          {list.map((feed) => (
            <li key={feed.id} className="feed" data-feed-id={feed.id}>
              <div className="feed-main">
                <h2>{feed.name}</h2>
                <p className="sub">
                  {describeConnector(feed.connector)} · {feed.postCount} post{feed.postCount === 1 ? '' : 's'}
                  {feed.moderation && ` · moderation ${feed.moderation} (overrides the wall)`}
                </p>
                <IngestStatus feed={feed} />
              </div>
              <div className="actions">
                {feed.connector && feed.enabled && me.can('POST /walls/{wallId}/feeds/{feedId}/poll') && (
                  <Button variant="primary" onClick={() => poll.mutate(feed)} disabled={poll.isPending}>
                    Poll now<span className="sr-only"> {feed.name}</span>
                  </Button>
                )}
                {me.can('PATCH /walls/{wallId}/feeds/{feedId}') && (
                  <>
                    <Button onClick={() => setEditing({ feed })}>
                      Edit<span className="sr-only"> {feed.name}</span>
                    </Button>
                    <Button onClick={() => toggle.mutate(feed)} disabled={toggle.isPending}>
                      {feed.enabled ? 'Disable' : 'Enable'}
                      <span className="sr-only"> {feed.name}</span>
                    </Button>
                  </>
                )}
              </div>
            </li>
          ))}
        </ul>
      </QueryRows>
      <Dialog title={editing?.feed ? 'Edit feed' : 'Add feed'} open={editing !== null} onClose={() => setEditing(null)}>
        {editing && (
          <FeedForm
            wallId={wallId}
            feed={editing.feed}
            onDone={async (message) => {
              setEditing(null);
              if (message) {
                say(message);
                await refresh();
              }
            }}
          />
        )}
      </Dialog>
    </section>
  );
}

interface Settings {
  kind: Kind;
  url: string;
  channelImage: boolean;
  instance: string;
  target: 'hashtag' | 'account';
  hashtag: string;
  account: string;
  actor: string;
  youtube: 'channel' | 'playlist';
  youtubeId: string;
  community: string;
  /** the connector of a kind the form does not edit, kept as it is */
  other: Connector | null;
}

function settingsOf(c: Feed['connector'] | undefined): Settings {
  const s: Settings = {
    kind: c ? (isFormKind(c.kind) ? c.kind : 'other') : 'rss',
    url: '',
    channelImage: false,
    instance: '',
    target: 'hashtag',
    hashtag: '',
    account: '',
    actor: '',
    youtube: 'channel',
    youtubeId: '',
    community: '',
    other: c && !isFormKind(c.kind) ? (c as Connector) : null,
  };
  if (!c) return s;
  if (c.kind === 'rss') Object.assign(s, { url: c.url, channelImage: c.channelImage ?? false });
  if (c.kind === 'mastodon')
    Object.assign(s, {
      instance: c.instance,
      hashtag: c.hashtag ?? '',
      account: c.account ?? '',
      target: c.account ? 'account' : 'hashtag',
    });
  if (c.kind === 'bluesky')
    Object.assign(s, { actor: c.actor ?? '', hashtag: c.hashtag ?? '', target: c.hashtag ? 'hashtag' : 'account' });
  if (c.kind === 'youtube')
    Object.assign(s, { youtube: c.playlistId ? 'playlist' : 'channel', youtubeId: c.playlistId ?? c.channelId ?? '' });
  if (c.kind === 'lemmy') Object.assign(s, { instance: c.instance, community: c.community });
  return s;
}

/** The connector setting, and the network and kind of feed the API records with it. */
function connectorOf(s: Settings): { connector: Connector | null; source: string; sourceType: string } {
  switch (s.kind) {
    case 'rss':
      return {
        connector: { kind: 'rss', url: s.url.trim(), ...(s.channelImage ? { channelImage: true } : {}) },
        source: 'RSS',
        sourceType: 'feed',
      };
    case 'mastodon':
      return {
        connector: {
          kind: 'mastodon',
          instance: s.instance.trim(),
          ...(s.target === 'hashtag'
            ? { hashtag: s.hashtag.trim().replace(/^#/, '') }
            : { account: s.account.trim().replace(/^@/, '') }),
        },
        source: 'Mastodon',
        sourceType: s.target,
      };
    case 'bluesky':
      return {
        connector: {
          kind: 'bluesky',
          ...(s.target === 'hashtag'
            ? { hashtag: s.hashtag.trim().replace(/^#/, '') }
            : { actor: s.actor.trim().replace(/^@/, '') }),
        },
        source: 'Bluesky',
        sourceType: s.target === 'hashtag' ? 'hashtag' : 'author',
      };
    case 'youtube':
      return {
        connector: {
          kind: 'youtube',
          ...(s.youtube === 'channel' ? { channelId: s.youtubeId.trim() } : { playlistId: s.youtubeId.trim() }),
        },
        source: 'YouTube',
        sourceType: s.youtube,
      };
    case 'lemmy':
      return {
        connector: { kind: 'lemmy', instance: s.instance.trim(), community: s.community.trim() },
        source: 'Lemmy',
        sourceType: 'community',
      };
    case 'none':
      return { connector: null, source: 'Manual', sourceType: 'posts' };
    case 'other':
      // the poller records the network and kind of feed at its next poll
      return { connector: s.other, source: OTHER_NETWORKS[s.other?.kind ?? ''] ?? 'Pending', sourceType: 'pending' };
  }
}

/** The connector settings the form shows for its kind (the fields its refusals are shown under). */
function shownSettings(s: Settings): string[] {
  switch (s.kind) {
    case 'rss':
      return ['url'];
    case 'mastodon':
      return ['instance', s.target === 'hashtag' ? 'hashtag' : 'account'];
    case 'bluesky':
      return [s.target === 'hashtag' ? 'hashtag' : 'actor'];
    case 'youtube':
      return [s.youtube === 'channel' ? 'channelId' : 'playlistId'];
    case 'lemmy':
      return ['instance', 'community'];
    case 'none':
    case 'other':
      return [];
  }
}

function FeedForm({ wallId, feed, onDone }: { wallId: number; feed: Feed | null; onDone(message?: string): void }) {
  const [name, setName] = useState(feed?.name ?? '');
  const [moderation, setModeration] = useState<'' | 'auto' | 'manual'>(feed?.moderation ?? '');
  const [enabled, setEnabled] = useState(feed?.enabled ?? true);
  const [s, setS] = useState<Settings>(() =>
    feed && !feed.connector ? { ...settingsOf(null), kind: 'none' } : settingsOf(feed?.connector),
  );
  const set = (change: Partial<Settings>) => setS({ ...s, ...change });
  const save = useSaveFeed(wallId, feed, {
    onSuccess: (saved) => onDone(feed ? `Feed “${saved.name}” saved.` : `Feed “${saved.name}” added.`),
  });
  const err = apiErrorOf(save.error);
  /** the API's message for a connector setting (`url` → connector.url) */
  const at = (name: string) => err?.forField(`connector.${name}`);
  // the connector's refusals that no field of this kind shows (the one-of rules, a setting of another kind)
  const shown = shownSettings(s).map((name) => `connector.${name}`);
  const otherConnectorErrors = (err?.fieldErrors ?? []).filter(
    (e) => (e.field === 'connector' || e.field.startsWith('connector.')) && !shown.includes(e.field),
  );
  const submit = onSubmit(() => {
    const { connector, source, sourceType } = connectorOf(s);
    const body = { name, connector, enabled, moderation: moderation === '' ? null : moderation, source, sourceType };
    save.mutate(body as FeedCreate);
  });
  return (
    <form onSubmit={submit} noValidate>
      <ErrorNote error={save.error} title={feed ? 'The feed was not saved' : 'The feed was not added'} />
      <TextField
        label="Name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={err?.forField('name')}
        required
      />
      <SelectField label="Network" value={s.kind} onChange={(e) => set({ kind: e.target.value as Kind })}>
        <Options
          of={[
            ...Object.entries(KINDS),
            ...(s.other ? [['other', OTHER_NETWORKS[s.other.kind] ?? s.other.kind] as const] : []),
          ]}
        />
      </SelectField>
      <fieldset className="connector">
        <legend>What to collect</legend>
        {s.kind === 'other' && s.other && (
          <p className="muted">
            {describeConnector(s.other as Feed['connector'])}: change it through the management API or the CLI (its
            connector JSON); saving here keeps it as it is.
          </p>
        )}
        {s.kind === 'rss' && (
          <>
            <TextField
              label="Feed URL"
              type="url"
              value={s.url}
              onChange={(e) => set({ url: e.target.value })}
              error={at('url')}
              placeholder="https://example.com/feed.xml"
            />
            <CheckboxField
              label="Use the feed’s artwork for posts without a picture"
              checked={s.channelImage}
              onChange={(e) => set({ channelImage: e.target.checked })}
            />
          </>
        )}
        {(s.kind === 'mastodon' || s.kind === 'lemmy') && (
          <TextField
            label="Instance URL"
            type="url"
            value={s.instance}
            onChange={(e) => set({ instance: e.target.value })}
            placeholder="https://mastodon.social"
            error={at('instance')}
          />
        )}
        {(s.kind === 'mastodon' || s.kind === 'bluesky') && (
          <>
            <SelectField
              label="Collect"
              value={s.target}
              onChange={(e) => set({ target: e.target.value as Settings['target'] })}
            >
              <option value="hashtag">A hashtag</option>
              <option value="account">
                {s.kind === 'bluesky' ? 'An account’s posts (handle or DID)' : 'An account’s posts'}
              </option>
            </SelectField>
            {s.target === 'hashtag' ? (
              <TextField
                label="Hashtag"
                value={s.hashtag}
                onChange={(e) => set({ hashtag: e.target.value })}
                error={at('hashtag')}
                placeholder="harbourfest"
              />
            ) : s.kind === 'mastodon' ? (
              <TextField
                label="Account"
                value={s.account}
                onChange={(e) => set({ account: e.target.value })}
                error={at('account')}
                placeholder="user or user@domain"
              />
            ) : (
              <TextField
                label="Handle or DID"
                value={s.actor}
                onChange={(e) => set({ actor: e.target.value })}
                error={at('actor')}
                placeholder="name.bsky.social"
              />
            )}
          </>
        )}
        {s.kind === 'youtube' && (
          <>
            <SelectField
              label="Collect"
              value={s.youtube}
              onChange={(e) => set({ youtube: e.target.value as Settings['youtube'] })}
            >
              <option value="channel">A channel</option>
              <option value="playlist">A playlist</option>
            </SelectField>
            <TextField
              label={s.youtube === 'channel' ? 'Channel id' : 'Playlist id'}
              value={s.youtubeId}
              onChange={(e) => set({ youtubeId: e.target.value })}
              error={at(s.youtube === 'channel' ? 'channelId' : 'playlistId')}
            />
          </>
        )}
        {s.kind === 'lemmy' && (
          <TextField
            label="Community"
            value={s.community}
            onChange={(e) => set({ community: e.target.value })}
            error={at('community')}
            placeholder="technology"
          />
        )}
        {s.kind === 'none' && <p className="hint">Nothing is polled; posts come from a data file import or the API.</p>}
        {otherConnectorErrors.map((e) => (
          <p key={e.field} className="field-error">
            {fieldErrorText(e)}
          </p>
        ))}
      </fieldset>
      <SelectField
        label="Moderation"
        value={moderation}
        onChange={(e) => setModeration(e.target.value as '' | 'auto' | 'manual')}
        error={err?.forField('moderation')}
      >
        <option value="">As the wall says</option>
        <option value="manual">Manual: this feed’s posts wait for approval</option>
        <option value="auto">Auto: this feed’s posts appear at once</option>
      </SelectField>
      <CheckboxField
        label="Enabled (polled on its schedule)"
        checked={enabled}
        onChange={(e) => setEnabled(e.target.checked)}
      />
      <FormActions submit={feed ? 'Save feed' : 'Add feed'} pending={save.isPending} onCancel={() => onDone()} />
    </form>
  );
}
