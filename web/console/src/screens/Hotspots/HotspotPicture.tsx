// The post's picture with a numbered hotspot per tagged product. A click on
// the picture places the chosen product there; a hotspot is dragged to move
// it, or focused and moved with the arrow keys (Shift: 5 % at a time).
import { useRef, type KeyboardEvent, type MouseEvent, type PointerEvent } from 'react';
import type { Tag } from '../../api/records';
import { clamp, KEY_STEPS, pct, type Point } from './geometry';

export function HotspotPicture({
  picture,
  alt,
  tags,
  moving,
  canEdit,
  onPlace,
  onDrag,
  onDrop,
  onNudge,
}: {
  picture: string;
  alt: string;
  tags: Tag[];
  /** positions being moved, not saved yet (by product) */
  moving: Record<number, Point>;
  canEdit: boolean;
  onPlace(at: Point): void;
  /** a hotspot is being dragged to `at` */
  onDrag(productId: number, at: Point): void;
  /** a drag ended at `at` */
  onDrop(productId: number, at: Point): void;
  /** a key moved a hotspot to `at` */
  onNudge(productId: number, at: Point): void;
}) {
  const figure = useRef<HTMLDivElement>(null);
  const drag = useRef<{ productId: number; moved: boolean } | null>(null);
  const pointAt = (clientX: number, clientY: number): Point | null => {
    const box = figure.current?.getBoundingClientRect();
    if (!box || box.width === 0 || box.height === 0) return null;
    return {
      left: clamp(((clientX - box.left) / box.width) * 100),
      top: clamp(((clientY - box.top) / box.height) * 100),
    };
  };
  const onPictureClick = (e: MouseEvent<HTMLDivElement>) => {
    if (!canEdit || (e.target as HTMLElement).closest('.hotspot')) return;
    const at = pointAt(e.clientX, e.clientY);
    if (at) onPlace(at);
  };
  const onKey = (tag: Tag, e: KeyboardEvent<HTMLButtonElement>) => {
    const step = KEY_STEPS[e.key];
    if (!step || !canEdit) return;
    e.preventDefault();
    const from = moving[tag.productId] ?? tag;
    const by = e.shiftKey ? 5 : 1;
    onNudge(tag.productId, { left: clamp(from.left + step[0] * by), top: clamp(from.top + step[1] * by) });
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
    onDrag(tag.productId, at);
  };
  const onPointerUp = (tag: Tag) => {
    const was = drag.current;
    drag.current = null;
    const at = moving[tag.productId];
    if (was?.moved && at) onDrop(tag.productId, at);
  };
  return (
    <>
      {/* the click is the mouse way to place; "Place in the middle" and the arrow keys are the keyboard's */}
      <div
        className={canEdit ? 'hotspot-figure editable' : 'hotspot-figure'}
        ref={figure}
        onClick={onPictureClick}
        data-testid="hotspot-picture"
      >
        <img src={picture} alt={alt} draggable={false} />
        {tags.map((tag, i) => {
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
    </>
  );
}
