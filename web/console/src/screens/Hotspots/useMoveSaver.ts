// Saving hotspot moves: one after the other, so the last one wins on the
// server too; a move by the arrow keys waits for a pause in the key presses.
import { useEffect, useRef } from 'react';
import type { Point } from './geometry';

export function useMoveSaver(save: (productId: number, at: Point) => Promise<unknown>) {
  const saves = useRef(Promise.resolve());
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());
  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach((t) => clearTimeout(t));
  }, []);
  const saveMove = (productId: number, at: Point) => {
    saves.current = saves.current.then(() =>
      save(productId, at).then(
        () => undefined,
        () => undefined, // shown by the move's error
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
  return { saveMove, saveSoon };
}
