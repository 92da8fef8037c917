// Unit lane: Node environment by default; a component test opts into jsdom with a
// `// @vitest-environment jsdom` first line. e2e/ belongs to Playwright, not here.
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Property tests fold tens of thousands of generated logs; keep them on both cores.
    pool: 'threads',
  },
})
