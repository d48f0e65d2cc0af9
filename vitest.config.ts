import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 600_000,
    projects: [
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      { test: { name: 'contract', include: ['test/contract/**/*.test.ts'], testTimeout: 120_000, hookTimeout: 600_000 } },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          testTimeout: 600_000,
          hookTimeout: 1_200_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
