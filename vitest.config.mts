import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Device and browser tests start real processes; two cores cannot run many at once.
    maxWorkers: 2,
    reporters: ['default'],
    // A failed UI test leaves what its page showed (test/ui/support/failure-pages.ts).
    setupFiles: ['test/ui/support/failure-pages.ts'],
  },
});
