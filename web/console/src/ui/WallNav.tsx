// The head of a wall's screens: where you are, the wall's other screens, and
// what the last action did.
import type { ReactNode } from 'react';
import { href } from '../router';
import { useWall } from '../api/queries/walls';
import { Announce, ErrorNote, ScreenTitle } from './kit';

export function WallHead({
  wallId,
  screen,
  said,
  children,
}: {
  wallId: number;
  screen: 'queue' | 'feeds' | 'rules' | 'shop';
  /** what the last action did, read out (for a screen whose actions say so right below its head) */
  said?: string;
  children?: ReactNode;
}) {
  const wall = useWall(wallId);
  const name = wall.data?.name ?? `wall ${wallId}`;
  const titles = { queue: 'Moderation', feeds: 'Feeds', rules: 'Rules', shop: 'Products on posts' };
  return (
    <>
      <div className="wall-head">
        <p className="crumbs">
          <a href={href.walls()}>Walls</a> › {name}
        </p>
        <div className="screen-head">
          <ScreenTitle>
            {titles[screen]} · {name}
          </ScreenTitle>
          {children}
        </div>
        <ErrorNote error={wall.error} title="The wall could not be loaded" />
        <nav aria-label="Wall" className="tabs">
          {(['queue', 'feeds', 'rules', 'shop'] as const).map((s) => (
            <a key={s} href={href[s](wallId)} aria-current={s === screen ? 'page' : undefined}>
              {titles[s]}
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
