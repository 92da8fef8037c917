// Unit lane: Node environment by default; a component test opts into jsdom with a
// `// @vitest-environment jsdom` first line. e2e/ belongs to Playwright, not here.
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'node',
    // FC_SEED / FC_PATH replay a failing property run (see the file).
    setupFiles: ['src/test-support/fast-check-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Property tests fold tens of thousands of generated logs; keep them on both cores.
    pool: 'threads',
  },
})
