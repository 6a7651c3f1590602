// The hotspot editor of one post: click on the picture to place the chosen
// product there, drag a hotspot to move it (or focus it and use the arrow
// keys; Shift moves 5 %), reorder and remove tags. Every change is one call
// of the management API; the tags in their order are what C5 returns.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type KeyboardEvent, type MouseEvent, type PointerEvent } from 'react';
import { api, unwrap } from '../api/client';
import type { Tag } from '../api/records';
import { useMe } from '../auth';
import { href } from '../router';
import { Announce, Button, Empty, ErrorNote, Loading, ScreenTitle, SelectField } from '../ui/kit';
import { price, useProducts } from './Products';
import { pictureOf } from './Shop';
import { useWall } from './Walls';
import './phase2.css';

type Point = { left: number; top: number };
const clamp = (n: number) => Math.min(100, Math.max(0, Math.round(n * 100) / 100));
const pct = (n: number) => `${Math.round(n * 10) / 10} %`;
const KEY_STEPS: Record<string, [number, number]> = {
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
};

export function Hotspots({ wallId, postId }: { wallId: number; postId: number }) {
  const me = useMe();
  const queryClient = useQueryClient();
  const path = { wallId: String(wallId), postId: String(postId) };
  const tagsKey = ['tags', wallId, postId];
  const wall = useWall(wallId);
  const post = useQuery({
    queryKey: ['post', wallId, postId],
    queryFn: () => unwrap(api.GET('/walls/{wallId}/posts/{postId}', { params: { path } })),
  });
  const tags = useQuery({
    queryKey: tagsKey,
    queryFn: () => unwrap(api.GET('/walls/{wallId}/posts/{postId}/products', { params: { path } })),
  });
  const products = useProducts(wall.data?.accountId);
  const canEdit = me.can('POST /walls/{wallId}/posts/{postId}/products');
  const [choice, setChoice] = useState('');
  const [said, setSaid] = useState('');
  /** positions being moved, not saved yet (by product) */
  const [moving, setMoving] = useState<Record<number, Point>>({});
  const figure = useRef<HTMLDivElement>(null);
  const drag = useRef<{ productId: number; moved: boolean } | null>(null);
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());
  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach((t) => clearTimeout(t));
  }, []);

  const saved = (list: Tag[]) => queryClient.setQueryData(tagsKey, list);
  const place = useMutation({
    mutationFn: (at: Point & { productId: number }) =>
      unwrap(api.POST('/walls/{wallId}/posts/{postId}/products', { params: { path }, body: at })),
    onSuccess: (list, at) => {
      saved(list);
      setChoice('');
      const name = list.find((t) => t.productId === at.productId)?.productName ?? 'The product';
      setSaid(`${name} placed at ${pct(at.left)} from the left, ${pct(at.top)} from the top.`);
      void queryClient.invalidateQueries({ queryKey: ['products'] });
    },
  });
  const move = useMutation({
    mutationFn: ({ productId, ...body }: { productId: number; left?: number; top?: number; position?: number }) =>
      unwrap(
        api.PATCH('/walls/{wallId}/posts/{postId}/products/{productId}', {
          params: { path: { ...path, productId: String(productId) } },
          body,
        }),
      ),
    onSuccess: (list, change) => {
      saved(list);
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
  });
  const remove = useMutation({
    mutationFn: (productId: number) =>
      unwrap(
        api.DELETE('/walls/{wallId}/posts/{postId}/products/{productId}', {
          params: { path: { ...path, productId: String(productId) } },
        }),
      ),
    onSuccess: (list, productId) => {
      const name = tags.data?.find((t) => t.productId === productId)?.productName ?? 'The product';
      saved(list);
      setSaid(`${name} removed from the post.`);
      void queryClient.invalidateQueries({ queryKey: ['products'] });
    },
  });

  const list = tags.data ?? [];
  const tagged = new Set(list.map((t) => t.productId));
  const untagged = (products.data?.data ?? []).filter((p) => !tagged.has(p.id));
  const chosen = Number(choice || untagged[0]?.id || 0);
  const pointAt = (clientX: number, clientY: number): Point | null => {
    const box = figure.current?.getBoundingClientRect();
    if (!box || box.width === 0 || box.height === 0) return null;
    return {
      left: clamp(((clientX - box.left) / box.width) * 100),
      top: clamp(((clientY - box.top) / box.height) * 100),
    };
  };
  const placeAt = (at: Point) => {
    if (!chosen) {
      setSaid('Choose a product to place first.');
      return;
    }
    place.mutate({ productId: chosen, ...at });
  };
  const onPictureClick = (e: MouseEvent<HTMLDivElement>) => {
    if (!canEdit || (e.target as HTMLElement).closest('.hotspot')) return;
    const at = pointAt(e.clientX, e.clientY);
    if (at) placeAt(at);
  };
  /** moves are saved one after the other, so the last one wins on the server too */
  const saves = useRef(Promise.resolve());
  const saveMove = (productId: number, at: Point) => {
    saves.current = saves.current.then(() =>
      move.mutateAsync({ productId, ...at }).then(
        () => undefined,
        () => undefined, // shown by move.error
      ),
    );
  };
  const saveSoon = (productId: number, at: Point) => {
    const old = timers.current.get(productId);
    if (old) clearTimeout(old);
    timers.current.set(
      productId,
      setTimeout(() => {
        timers.current.delete(productId);
        saveMove(productId, at);
      }, 350),
    );
  };
  const onKey = (tag: Tag, e: KeyboardEvent<HTMLButtonElement>) => {
    const step = KEY_STEPS[e.key];
    if (!step || !canEdit) return;
    e.preventDefault();
    const from = moving[tag.productId] ?? tag;
    const by = e.shiftKey ? 5 : 1;
    const at = { left: clamp(from.left + step[0] * by), top: clamp(from.top + step[1] * by) };
    setMoving((m) => ({ ...m, [tag.productId]: at }));
    saveSoon(tag.productId, at);
  };
  const onPointerDown = (tag: Tag, e: PointerEvent<HTMLButtonElement>) => {
    if (!canEdit || e.button !== 0) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { productId: tag.productId, moved: false };
  };
  const onPointerMove = (tag: Tag, e: PointerEvent<HTMLButtonElement>) => {
    if (drag.current?.productId !== tag.productId) return;
    const at = pointAt(e.clientX, e.clientY);
    if (!at) return;
    drag.current.moved = true;
    setMoving((m) => ({ ...m, [tag.productId]: at }));
  };
  const onPointerUp = (tag: Tag) => {
    const was = drag.current;
    drag.current = null;
    const at = moving[tag.productId];
    if (was?.moved && at) saveMove(tag.productId, at);
  };

  const picture = post.data ? pictureOf(post.data) : '';
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
              <div className="place-bar">
                <SelectField
                  label="Product to place"
                  value={chosen || ''}
                  onChange={(e) => setChoice(e.target.value)}
                  hint="Click on the picture where it shows, or place it in the middle and move it with the arrow keys."
                  disabled={untagged.length === 0}
                >
                  {untagged.length === 0 && <option value="">Every product is placed</option>}
                  {untagged.map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.name} ({price(p)})
                    </option>
                  ))}
                </SelectField>
                <Button onClick={() => placeAt({ left: 50, top: 50 })} disabled={!chosen || place.isPending}>
                  Place in the middle
                </Button>
              </div>
            )}
            {/* the click is the mouse way to place; "Place in the middle" and the arrow keys are the keyboard's */}
            <div
              className={canEdit ? 'hotspot-figure editable' : 'hotspot-figure'}
              ref={figure}
              onClick={onPictureClick}
              data-testid="hotspot-picture"
            >
              <img
                src={picture}
                alt={post.data.alt || `Photo by ${post.data.authorName || post.data.username}`}
                draggable={false}
              />
              {list.map((tag, i) => {
                const at = moving[tag.productId] ?? tag;
                return (
                  <button
                    type="button"
                    key={tag.productId}
                    className="hotspot"
                    data-product-id={tag.productId}
                    style={{ left: `${at.left}%`, top: `${at.top}%` }}
                    aria-label={`${i + 1}. ${tag.productName}, at ${pct(at.left)} from the left and ${pct(at.top)} from the top`}
                    aria-describedby={canEdit ? 'hotspot-keys' : undefined}
                    onClick={(e) => e.stopPropagation()}
                    onKeyDown={(e) => onKey(tag, e)}
                    onPointerDown={(e) => onPointerDown(tag, e)}
                    onPointerMove={(e) => onPointerMove(tag, e)}
                    onPointerUp={() => onPointerUp(tag)}
                    onPointerCancel={() => (drag.current = null)}
                  >
                    {i + 1}
                  </button>
                );
              })}
            </div>
            {canEdit && (
              <p className="hint" id="hotspot-keys">
                Drag a numbered hotspot to move it, or focus it and use the arrow keys (Shift: 5 % at a time).
              </p>
            )}
          </div>
          <section aria-labelledby="tags-title" className="panel">
            <h2 id="tags-title">Tagged products, in order</h2>
            {list.length === 0 ? (
              <p>No products on this post yet.</p>
            ) : (
              <ol className="tag-list">
                {list.map((tag, i) => {
                  const at = moving[tag.productId] ?? tag;
                  return (
                    <li key={tag.productId} data-product-id={tag.productId}>
                      <span className="tag-name">{tag.productName}</span>
                      <span className="sub">
                        {pct(at.left)} from the left, {pct(at.top)} from the top
                      </span>
                      {canEdit && (
                        <span className="actions">
                          <Button
                            onClick={() => move.mutate({ productId: tag.productId, position: i - 1 })}
                            disabled={i === 0 || move.isPending}
                          >
                            Move up<span className="sr-only"> {tag.productName}</span>
                          </Button>
                          <Button
                            onClick={() => move.mutate({ productId: tag.productId, position: i + 1 })}
                            disabled={i === list.length - 1 || move.isPending}
                          >
                            Move down<span className="sr-only"> {tag.productName}</span>
                          </Button>
                          <Button
                            variant="danger"
                            onClick={() => remove.mutate(tag.productId)}
                            disabled={remove.isPending}
                          >
                            Remove<span className="sr-only"> {tag.productName}</span>
                          </Button>
                        </span>
                      )}
                    </li>
                  );
                })}
              </ol>
            )}
            <p className="sub">
              The commerce API returns them in this order with the post (C5,{' '}
              <code>
                getGalleryProductByID/{wallId}/{postId}/
              </code>
              ).
            </p>
          </section>
        </div>
      )}
    </section>
  );
}
