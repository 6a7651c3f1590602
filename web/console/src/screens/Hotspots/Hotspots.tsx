// The hotspot editor of one post: click on the picture to place the chosen
// product there, drag a hotspot to move it (or focus it and use the arrow
// keys; Shift moves 5 %), reorder and remove tags. Every change is one call
// of the management API; the tags in their order are what C5 returns.
import { useState } from 'react';
import { usePost } from '../../api/queries/posts';
import { useProducts } from '../../api/queries/products';
import { useTags, useTagWrites } from '../../api/queries/tags';
import { useWall } from '../../api/queries/walls';
import { useMe } from '../../auth';
import { href } from '../../router';
import { Announce, Empty, ErrorNote, Loading, ScreenTitle } from '../../ui/kit';
import { copyUrl } from '../../ui/Picture';
import './Hotspots.css';
import { pictureOf } from '../Shop';
import { pct, type Point } from './geometry';
import { HotspotPicture } from './HotspotPicture';
import { PlaceBar } from './PlaceBar';
import { TagList } from './TagList';
import { useMoveSaver } from './useMoveSaver';

export function Hotspots({ wallId, postId }: { wallId: number; postId: number }) {
  const me = useMe();
  const wall = useWall(wallId);
  const post = usePost(wallId, postId);
  const tags = useTags(wallId, postId);
  const products = useProducts(wall.data?.accountId);
  const canEdit = me.can('POST /walls/{wallId}/posts/{postId}/products');
  const [choice, setChoice] = useState('');
  const [said, setSaid] = useState('');
  /** positions being moved, not saved yet (by product) */
  const [moving, setMoving] = useState<Record<number, Point>>({});
  const movingTo = (productId: number, at: Point) => setMoving((m) => ({ ...m, [productId]: at }));

  const { place, move, remove } = useTagWrites(wallId, postId, {
    placed: (list, at) => {
      setChoice('');
      const name = list.find((t) => t.productId === at.productId)?.productName ?? 'The product';
      setSaid(`${name} placed at ${pct(at.left)} from the left, ${pct(at.top)} from the top.`);
    },
    moved: (list, change) => {
      // the local position gives way to the saved one, unless it has moved on since
      setMoving((m) => {
        const local = m[change.productId];
        if (!local || local.left !== change.left || local.top !== change.top) return m;
        const rest = { ...m };
        delete rest[change.productId];
        return rest;
      });
      const tag = list.find((t) => t.productId === change.productId);
      if (tag)
        setSaid(
          change.position !== undefined
            ? `${tag.productName} is now number ${tag.position + 1}.`
            : `${tag.productName} moved to ${pct(tag.left)} from the left, ${pct(tag.top)} from the top.`,
        );
    },
    removed: (_list, productId) => {
      const name = tags.data?.find((t) => t.productId === productId)?.productName ?? 'The product';
      setSaid(`${name} removed from the post.`);
    },
  });
  const { saveMove, saveSoon } = useMoveSaver((productId, at) => move.mutateAsync({ productId, ...at }));

  const list = tags.data ?? [];
  const tagged = new Set(list.map((t) => t.productId));
  const untagged = (products.data?.data ?? []).filter((p) => !tagged.has(p.id));
  const chosen = Number(choice || untagged[0]?.id || 0);
  const placeAt = (at: Point) => {
    if (!chosen) {
      setSaid('Choose a product to place first.');
      return;
    }
    place.mutate({ productId: chosen, ...at });
  };

  // Wallery's copy when it is stored (the same picture, upright as browsers show the original)
  const picture = post.data ? (copyUrl(post.data.copies, 'item:0') ?? pictureOf(post.data)) : '';
  const error = place.error ?? move.error ?? remove.error;
  return (
    <section className="screen">
      <p className="crumbs">
        <a href={href.walls()}>Walls</a> › <a href={href.shop(wallId)}>{wall.data?.name ?? `wall ${wallId}`}</a> › post{' '}
        {postId}
      </p>
      <ScreenTitle>Products on post {postId}</ScreenTitle>
      <Announce message={said} />
      <ErrorNote error={error} title="The change was not saved" />
      {(post.isPending || tags.isPending) && <Loading what="the post" />}
      <ErrorNote error={post.error ?? tags.error} title="The post could not be loaded" />
      {post.data && !picture && <Empty>This post has no picture to place products on.</Empty>}
      {post.data && picture && (
        <div className="hotspot-layout">
          <div>
            {canEdit && (
              <PlaceBar
                untagged={untagged}
                chosen={chosen}
                placing={place.isPending}
                onChoose={setChoice}
                onPlaceInMiddle={() => placeAt({ left: 50, top: 50 })}
              />
            )}
            <HotspotPicture
              picture={picture}
              alt={post.data.alt || `Photo by ${post.data.authorName || post.data.username}`}
              tags={list}
              moving={moving}
              canEdit={canEdit}
              onPlace={placeAt}
              onDrag={movingTo}
              onDrop={saveMove}
              onNudge={(productId, at) => {
                movingTo(productId, at);
                saveSoon(productId, at);
              }}
            />
          </div>
          <TagList
            wallId={wallId}
            postId={postId}
            tags={list}
            moving={moving}
            canEdit={canEdit}
            busy={{ reorder: move.isPending, remove: remove.isPending }}
            onReorder={(productId, position) => move.mutate({ productId, position })}
            onRemove={(productId) => remove.mutate(productId)}
          />
        </div>
      )}
    </section>
  );
}
