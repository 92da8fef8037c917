/**
 * E2E against the built app: `vite build` runs first (npm run test:e2e), then `vite preview` on 4178 with
 * --strictPort, so a stray server on the usual ports can never answer instead of this build.
 * Browser: Debian's /usr/bin/chromium when present (no downloads in CI), else Playwright's own Chromium.
 */

import { defineConfig } from '@playwright/test'
import { chromiumLaunchOptions } from './e2e/support/chromium.ts'

// E2E_PORT / E2E_DIST let two e2e runs share a machine (each builds into its own folder with
// `npx vite build --outDir DIR` and serves it on its own port); CI uses the defaults.
const PORT = Number(process.env['E2E_PORT'] ?? 4178)
const DIST = process.env['E2E_DIST'] ?? 'dist'

export default defineConfig({
  testDir: 'e2e',
  testMatch: '*.spec.ts',
  // Specs are independent: one worker per core of the 2-vCPU machines this runs on.
  workers: 2,
  fullyParallel: true,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  retries: 0,
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    baseURL: `http://localhost:${PORT}`,
    trace: 'retain-on-failure',
    viewport: { width: 1440, height: 900 },
    launchOptions: chromiumLaunchOptions(),
  },
  webServer: {
    command: `npx vite preview --port ${PORT} --strictPort --outDir ${DIST}`,
    url: `http://localhost:${PORT}`,
    reuseExistingServer: false,
    timeout: 60_000,
  },
})
