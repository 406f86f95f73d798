import { defineConfig } from 'vitest/config';

// The Postgres suite (`npm run test:durable`): starts its own temporary PostgreSQL and worker processes.
export default defineConfig({
  test: {
    include: ['test/postgres/**/*.pg.ts'],
    testTimeout: 240_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
