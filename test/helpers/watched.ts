/** A promise that can be looked at without awaiting it. */
export function watched<T>(promise: Promise<T>): { promise: Promise<T>; settled: () => boolean } {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  return { promise, settled: () => settled };
}
