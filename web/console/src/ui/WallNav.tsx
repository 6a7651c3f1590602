// The head of a wall's screens: where you are, the wall's other screens, the
// screen's own actions beside "Open the wall" (its page, event screen, link
// and QR code, from every screen of the wall), and what the last action did.
import type { ReactNode } from 'react';
import { href } from '../router';
import { useWall } from '../api/queries/walls';
import { Announce, ErrorNote, ScreenTitle } from './kit';
import { OpenWallButton } from './OpenWall';

/** A wall's own screens, in the order of its tabs. */
const WALL_SCREENS = ['queue', 'posts', 'feeds', 'rules', 'shop', 'control'] as const;
type WallScreen = (typeof WALL_SCREENS)[number];
const TITLES: Record<WallScreen, string> = {
  queue: 'Moderation',
  posts: 'Posts',
  feeds: 'Feeds',
  rules: 'Rules',
  shop: 'Products on posts',
  control: 'Control',
};

export function WallHead({
  wallId,
  screen,
  said,
  children,
}: {
  wallId: number;
  screen: WallScreen;
  /** what the last action did, read out (for a screen whose actions say so right below its head) */
  said?: string;
  children?: ReactNode;
}) {
  const wall = useWall(wallId);
  const name = wall.data?.name ?? `wall ${wallId}`;
  return (
    <>
      <div className="wall-head">
        <p className="crumbs">
          <a href={href.walls()}>Walls</a> › {name}
        </p>
        <div className="screen-head">
          <ScreenTitle>
            {TITLES[screen]} · {name}
          </ScreenTitle>
          <div className="screen-actions">
            {children}
            {wall.data && <OpenWallButton wall={wall.data} />}
          </div>
        </div>
        <ErrorNote error={wall.error} title="The wall could not be loaded" />
        <nav aria-label="Wall" className="tabs">
          {WALL_SCREENS.map((s) => (
            <a key={s} href={href[s](wallId)} aria-current={s === screen ? 'page' : undefined}>
              {TITLES[s]}
            </a>
          ))}
          <a href={href.embed(wallId)}>Embed</a>
          <a href={href.analytics(wallId)}>Analytics</a>
        </nav>
      </div>
      {said !== undefined && <Announce message={said} />}
    </>
  );
}
