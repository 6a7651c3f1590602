// stream-throttle ships no types: the part bench/upload-resume.ts uses.
declare module 'stream-throttle' {
  import type { Transform } from 'node:stream';
  export class ThrottleGroup {
    constructor(opts: { rate: number; chunksize?: number });
    throttle(): Transform;
  }
}
