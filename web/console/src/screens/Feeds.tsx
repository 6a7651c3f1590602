// The feeds of a wall: add, edit, enable/disable (the form, made from the
// connector schemas: feeds/FeedForm.tsx), ingestion status in words (a
// failure as its cause and fix: api/messages.ts), and "Poll now" (what it did
// said in green, a failed poll in red).
import { useState } from 'react';
import type { Feed, PollResult } from '../api/client';
import { CONNECTOR_CATALOGUE } from '../api/connectors.gen';
import { feedFailureText } from '../api/messages';
import { usePollFeed, useRefreshFeeds, useToggleFeed, useFeeds } from '../api/queries/feeds';
import { useMe } from '../auth';
import { Button, Dialog, ErrorNote, NoneYet, QueryRows, When } from '../ui/kit';
import { WallHead } from '../ui/WallNav';
import { FeedForm } from './feeds/FeedForm';
import { describeSettings } from './feeds/settings';
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
    default:
      return describeSettings(c as Record<string, unknown>);
  }
}

/** The networks a feed can collect from, for the empty list's invitation. */
const NETWORKS = [...new Set(CONNECTOR_CATALOGUE.map((k) => k.source))];
const networkList = `${NETWORKS.slice(0, -1).join(', ')} or ${NETWORKS[NETWORKS.length - 1]}`;

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
  const howToAdd = mayAdd && `Add one to collect posts from ${networkList}.`;
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
