import { defineConfig } from 'vitest/config';

// Each project extends these defaults (projects inherit nothing from the root without `extends`).
export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 600_000,
    setupFiles: ['test/support/cleanup.ts'],
    projects: [
      // The fast lane: its files share their workers' module instances (no re-import of the app per file).
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'], isolate: false } },
      { extends: true, test: { name: 'contract', include: ['test/contract/**/*.test.ts'], testTimeout: 120_000, hookTimeout: 600_000 } },
      // Property-based fuzzing of the whole API (REST from /openapi.json, GraphQL by introspection): FUZZ_SEED replays a run.
      { extends: true, test: { name: 'fuzz', include: ['test/fuzz/**/*.test.ts'], testTimeout: 300_000, hookTimeout: 120_000 } },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          testTimeout: 600_000,
          hookTimeout: 1_200_000,
          fileParallelism: false,
        },
      },
      {
        // A real OpenSearch cluster (OPENSEARCH_CLUSTER_URL); skipped without one: `npm run test:cluster`.
        test: { name: 'cluster', include: ['test/cluster/**/*.test.ts'], testTimeout: 600_000, hookTimeout: 600_000, fileParallelism: false },
      },
    ],
  },
});
