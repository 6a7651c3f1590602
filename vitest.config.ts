import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // each file gets its own databases; two workers match the 2-core machines
    pool: 'forks',
    maxWorkers: 2,
  },
});
