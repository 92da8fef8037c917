/**
 * A defect in the middle of a followed log, in a real browser: the page keeps following past it, the defective line
 * is marked in the diagnostics pane (the server forwards it verbatim, so the worker's decoder judges it as in a
 * dropped file), and the status line says the server stepped over it.
 */

import { appendFile, mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { startLensServer, type LensServer } from '../src/server/lens-server.ts'
import { headerText } from '../src/test-support/live-test-kit.ts'
import { user } from './support/live-lines.ts'

let server: LensServer
let path: string

test.beforeAll(async () => {
  const root = await mkdtemp(join(tmpdir(), 'lens-e2e-defects-'))
  const dir = join(root, '--home-u-proj--', 'session-defects')
  await mkdir(dir, { recursive: true })
  path = join(dir, 'session.jsonl')
  await writeFile(path, headerText('session-defects') + '\n' + user(0) + user(1))
  server = await startLensServer({
    roots: [root],
    distDir: process.env['LENS_DIST'] ?? process.env['E2E_DIST'] ?? 'dist',
    pollMs: 250,
  })
})
test.afterAll(() => server.close())

test('a bad line mid-log: marked at its line in the diagnostics pane, the events after it keep coming', async ({ page }) => {
  await page.goto(`${server.viewerUrl}&session=session-defects`)
  await expect(page.getByTestId('live-status')).toHaveAttribute('data-status', 'live')
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-max', '1')

  // Line 4 is seq 2 cut short (its closing braces lost); seqs 3 and 4 follow intact.
  await appendFile(path, user(2).slice(0, 40) + '\n' + user(3) + user(4))
  await expect(page.getByTestId('live-last-seq')).toHaveText('last seq 4')
  await expect(page.getByTestId('timeline')).toHaveAttribute('aria-valuetext', 'seq 4 of 4')
  const defects = page.getByTestId('live-defects')
  await expect(defects).toHaveAttribute('data-count', '2')
  await expect(defects).toHaveAttribute(
    'title',
    /^line-invalid-json, line 4, byte \d+: .*\nseq-gap, line 5, byte \d+: .*seqs 2\.\.2 are missing/,
  )
  const diagnostics = page.getByTestId('diagnostics')
  await expect(diagnostics.getByTestId('diagnostic').filter({ hasText: 'line-invalid-json' })).toContainText('line 4')

  // Still live: a later event arrives as usual.
  await appendFile(path, user(5))
  await expect(page.getByTestId('live-last-seq')).toHaveText('last seq 5')
  await expect(page.getByTestId('timeline')).toHaveAttribute('aria-valuetext', 'seq 5 of 5')
})
