// A hotspot's place on the picture: percentages from its left and top edges.
export type Point = { left: number; top: number };

/** within the picture, to a hundredth of a percent */
export const clamp = (n: number) => Math.min(100, Math.max(0, Math.round(n * 100) / 100));
/** a position as read out: "12.5 %" */
export const pct = (n: number) => `${Math.round(n * 10) / 10} %`;

/** the arrow keys' direction of a step */
export const KEY_STEPS: Record<string, [number, number]> = {
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
};
