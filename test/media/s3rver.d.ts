// s3rver ships no types: the part of it the media storage tests use.
declare module 's3rver' {
  import type { Server } from 'node:http';
  import type { AddressInfo } from 'node:net';

  export interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    /** where the buckets' objects are kept */
    directory?: string;
    resetOnClose?: boolean;
    configureBuckets?: { name: string; configs?: (string | Buffer)[] }[];
  }

  export default class S3rver {
    constructor(options?: S3rverOptions);
    /** starts listening: the address it listens on */
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
    readonly httpServer?: Server;
  }
}
