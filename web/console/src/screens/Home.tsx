// Home, the console's landing screen: what needs attention across the walls
// the token sees (GET /attention) — posts waiting, failing feeds and
// webhooks, accounts near their daily call limit, today's impressions and
// clicks — each item a link to the screen that deals with it. Without walls:
// the steps to the first one.
import type { ReactNode } from 'react';
import { useAttention, type Attention } from '../api/queries/attention';
import { useMe } from '../auth';
import { href } from '../router';
import { QueryStatus, ScreenTitle, When } from '../ui/kit';
import './Home.css';

const count = new Intl.NumberFormat('en');
const n = (value: number) => count.format(value);
/** "1 post", "3 posts" */
const plural = (value: number, one: string, many = `${one}s`) => `${n(value)} ${value === 1 ? one : many}`;

export function Home() {
  const attention = useAttention();
  const seen = attention.data;
  return (
    <section className="screen home">
      <div className="screen-head">
        <ScreenTitle>Home</ScreenTitle>
      </div>
      <QueryStatus query={attention} what="what needs attention" />
      {seen && (seen.walls === 0 ? <GetStarted seen={seen} /> : <Overview seen={seen} />)}
    </section>
  );
}

/** How many things need attention: walls with posts waiting, failing feeds and webhooks, full accounts. */
const attentionCount = (s: Attention) =>
  s.pending.walls.total + s.failingFeeds.total + s.failingWebhooks.total + s.nearQuota.total;

function Overview({ seen }: { seen: Attention }) {
  const things = attentionCount(seen);
  return (
    <>
      <p className="home-scope">
        Across {plural(seen.walls, 'wall')} in {plural(seen.accounts, 'account')}.
      </p>
      {things === 0 ? (
        <p className="note home-summary home-summary-clear" data-testid="home-summary">
          <strong>All clear.</strong> Nothing needs your attention right now.
        </p>
      ) : (
        <p className="note note-warn home-summary" data-testid="home-summary">
          <strong>{plural(things, 'thing')} need your attention.</strong> Each links to where it is dealt with.
        </p>
      )}
      <div className="home-cards">
        <Card
          id="home-pending"
          title="Posts waiting for approval"
          total={seen.pending.posts}
          clear="No post is waiting for a decision."
          more={seen.pending.walls.total - seen.pending.walls.items.length}
          moreHref={href.walls()}
          moreText="more walls with posts waiting"
        >
          {seen.pending.walls.items.map((w) => (
            <li key={w.wallId} data-wall-id={w.wallId}>
              <a href={href.queue(w.wallId)}>
                <span className="home-item-name">{w.wallName}</span>
                <span className="home-item-sub">
                  {plural(w.pending, 'post')} waiting <span aria-hidden="true">→</span> moderate
                </span>
              </a>
            </li>
          ))}
        </Card>
        <Card
          id="home-feeds"
          title="Feeds failing"
          total={seen.failingFeeds.total}
          clear="Every feed’s last poll worked."
          more={seen.failingFeeds.total - seen.failingFeeds.items.length}
          moreHref={href.walls()}
          moreText="more failing feeds"
        >
          {seen.failingFeeds.items.map((f) => (
            <li key={f.feedId} data-feed-id={f.feedId}>
              <a href={href.feeds(f.wallId)}>
                <span className="home-item-name">
                  {f.feedName}
                  {f.failing && <span className="badge badge-bad">failing</span>}
                </span>
                <span className="home-item-sub">
                  on {f.wallName} ·{' '}
                  {f.failures === 1 ? 'the last poll failed' : `the last ${n(f.failures)} polls failed`}
                  {f.lastErrorAt && (
                    <>
                      {' '}
                      (<When iso={f.lastErrorAt} />)
                    </>
                  )}
                  . See the cause and the fix <span aria-hidden="true">→</span>
                </span>
              </a>
            </li>
          ))}
        </Card>
        <Card
          id="home-webhooks"
          title="Webhooks failing"
          total={seen.failingWebhooks.total}
          clear="Every webhook is delivering."
          more={seen.failingWebhooks.total - seen.failingWebhooks.items.length}
          moreHref={href.webhooks()}
          moreText="more failing webhooks"
        >
          {seen.failingWebhooks.items.map((w) => (
            <li key={w.webhookId} data-webhook-id={w.webhookId}>
              <a href={href.webhooks(w.accountId, w.webhookId)}>
                <span className="home-item-name home-url">{w.url}</span>
                <span className="home-item-sub">
                  {w.accountName} ·{' '}
                  {w.state === 'disabled'
                    ? `stopped after ${plural(w.failures, 'failed attempt')}: enable it again once the receiver works`
                    : `${plural(w.failures, 'failed attempt')} in a row, retrying`}{' '}
                  <span aria-hidden="true">→</span>
                </span>
              </a>
            </li>
          ))}
        </Card>
        <Card
          id="home-quota"
          title="Near the daily call limit"
          total={seen.nearQuota.total}
          clear="Every account is well within its daily call limit."
          more={seen.nearQuota.total - seen.nearQuota.items.length}
          moreHref={href.keys()}
          moreText="more accounts near their limit"
        >
          {seen.nearQuota.items.map((a) => (
            <li key={a.accountId} data-account-id={a.accountId}>
              <a href={href.keys(a.accountId)}>
                <span className="home-item-name">{a.accountName}</span>
                <span className="home-item-sub">
                  {n(a.calls)} of {n(a.dailyCallLimit)} public API calls today ({percent(a.calls, a.dailyCallLimit)}
                  ). Keys and usage <span aria-hidden="true">→</span>
                </span>
              </a>
              <meter
                className="home-meter"
                min={0}
                max={Math.max(a.dailyCallLimit, 1)}
                low={Math.max(a.dailyCallLimit, 1) * 0.8}
                high={Math.max(a.dailyCallLimit, 1) * 0.95}
                optimum={0}
                value={Math.min(a.calls, Math.max(a.dailyCallLimit, 1))}
                aria-label={`${a.accountName}: calls used today`}
              />
            </li>
          ))}
        </Card>
        <Today seen={seen} />
      </div>
    </>
  );
}

/** "92 %" (a no-break space: the number and its sign stay on one line) */
const percent = (part: number, whole: number) =>
  whole > 0 ? `${Math.min(999, Math.floor((part / whole) * 100))}\u00a0%` : 'limit 0';

function Today({ seen }: { seen: Attention }) {
  const { today } = seen;
  return (
    <section className="home-card home-today" aria-labelledby="home-today">
      <h2 id="home-today">Today</h2>
      <dl className="stats">
        <div>
          <dt>Impressions</dt>
          <dd data-testid="today-impressions">{n(today.impressions)}</dd>
        </div>
        <div>
          <dt>Clicks</dt>
          <dd data-testid="today-clicks">{n(today.clicks)}</dd>
        </div>
      </dl>
      {today.walls.items.length === 0 ? (
        <p className="home-clear">No views or clicks yet today (UTC). Counted from the walls’ embeds and pages.</p>
      ) : (
        <ul className="home-list">
          {today.walls.items.map((w) => (
            <li key={w.wallId} data-wall-id={w.wallId}>
              <a href={href.analytics(w.wallId)}>
                <span className="home-item-name">{w.wallName}</span>
                <span className="home-item-sub">
                  {plural(w.impressions, 'impression')} · {plural(w.clicks, 'click')}. Analytics{' '}
                  <span aria-hidden="true">→</span>
                </span>
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** A card of one kind of thing: its count, its items (links), "all clear" when there are none. */
function Card({
  id,
  title,
  total,
  clear,
  more,
  moreHref,
  moreText,
  children,
}: {
  id: string;
  title: string;
  total: number;
  clear: string;
  more: number;
  moreHref: string;
  moreText: string;
  children: ReactNode;
}) {
  return (
    <section className={total > 0 ? 'home-card home-card-due' : 'home-card'} aria-labelledby={id}>
      <h2 id={id}>
        {title} <span className={total > 0 ? 'badge badge-warn' : 'badge badge-ok'}>{n(total)}</span>
      </h2>
      {total === 0 ? (
        <p className="home-clear">
          <span aria-hidden="true">✓ </span>
          {clear}
        </p>
      ) : (
        <ul className="home-list">{children}</ul>
      )}
      {more > 0 && (
        <p className="home-more">
          <a href={moreHref}>
            and {n(more)} {moreText}
          </a>
        </p>
      )}
    </section>
  );
}

/** No walls yet: the steps to the first one, each a link where the token may take it. */
function GetStarted({ seen }: { seen: Attention }) {
  const me = useMe();
  const mayMakeAccounts = me.can('POST /accounts') && me.accounts === null;
  const mayMakeWalls = me.can('POST /walls');
  const step = (done: boolean, children: ReactNode) => (
    <li className={done ? 'done' : undefined}>
      {done && <span className="sr-only">Done: </span>}
      {children}
    </li>
  );
  return (
    <div className="panel home-start" data-testid="get-started">
      <h2>Welcome: let’s put up your first wall</h2>
      <p>
        There are no walls yet. A wall collects posts from feeds you choose and shows them on your pages and screens.
      </p>
      <ol className="home-steps">
        {step(
          seen.accounts > 0,
          seen.accounts > 0 ? (
            <>
              An account to hold the wall: {plural(seen.accounts, 'account')} ready.
              {mayMakeAccounts && (
                <>
                  {' '}
                  <a href={href.accounts()}>See the accounts</a>
                </>
              )}
            </>
          ) : mayMakeAccounts ? (
            <>
              <a href={href.accounts()}>Create an account</a> for the brand or event: its plan and daily call limit.
            </>
          ) : (
            <>An account for the brand or event (an admin creates it).</>
          ),
        )}
        {step(
          false,
          mayMakeWalls ? (
            <>
              <a href={href.walls()}>Make a wall</a> in it: a name, and whether posts wait for your approval.
            </>
          ) : (
            <>A wall in it (an editor or admin makes it).</>
          ),
        )}
        {step(false, <>Add feeds to the wall: RSS, Mastodon, Bluesky, YouTube or Lemmy.</>)}
        {step(false, <>Approve posts in its queue, then open the wall’s page or event screen.</>)}
      </ol>
      <p>
        <a href="../guide/">The guide</a> walks through it step by step.
      </p>
    </div>
  );
}
