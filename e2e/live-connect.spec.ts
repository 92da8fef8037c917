/** Live Connect flow in a real browser: the companion server serves the built viewer, the page follows a growing log. */

import { appendFile, mkdir, mkdtemp, rename, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { startLensServer, type LensServer } from '../src/server/lens-server.ts'
import { headerText } from '../src/test-support/live-test-kit.ts'
import { compaction, user } from './support/live-lines.ts'

const header = (id: string, extra: Record<string, unknown> = {}): string => headerText(id, extra) + '\n'

let server: LensServer
let path: string

test.beforeAll(async () => {
  const root = await mkdtemp(join(tmpdir(), 'lens-e2e-live-'))
  const dir = join(root, '--home-u-proj--', 'session-e2e')
  await mkdir(dir, { recursive: true })
  path = join(dir, 'session.jsonl')
  await writeFile(path, header('session-e2e') + user(0) + user(1))
  const childDir = join(root, '--home-u-proj--', 'session-e2e-child')
  await mkdir(childDir, { recursive: true })
  await writeFile(
    join(childDir, 'session.jsonl'),
    header('session-e2e-child', { parentSession: 'session-e2e', origin: 'subagent' }) + user(0),
  )
  // LENS_DIST lets a run use a build elsewhere; npm run test:e2e builds dist/ first.
  server = await startLensServer({
    roots: [root],
    distDir: process.env['LENS_DIST'] ?? process.env['E2E_DIST'] ?? 'dist',
    pollMs: 250,
  })
})
test.afterAll(() => server.close())

test('picker, live growth with follow, pause and resume, a compaction landing, reset, subagent child', async ({ page }) => {
  await page.goto(server.viewerUrl)
  await expect(page.getByTestId('session-picker')).toBeVisible()
  await expect(page.getByTestId('session-option')).toHaveCount(2)
  await page
    .getByTestId('session-option')
    .filter({ hasText: /^session-e2e(?!-child)/ })
    .click()
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-max', '1')
  await expect(page.getByTestId('live-status')).toHaveAttribute('data-status', 'live')
  // The cursor's #seq follows once the feed has caught up (links to live sessions land too).
  await expect(page).toHaveURL(/[?&]session=session-e2e(&|#|$)/)

  for (let seq = 2; seq < 5; seq++) await appendFile(path, user(seq))
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-max', '4')
  await expect(page.getByTestId('live-last-seq')).toHaveText('last seq 4')
  await expect(page.getByTestId('live-following')).toBeVisible()

  // Scrubbing back pauses following; the control brings the cursor back to the newest event.
  await page.getByTestId('timeline').focus()
  await page.keyboard.press('Home')
  await expect(page.getByTestId('live-follow')).toBeVisible()
  await appendFile(path, user(5))
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-max', '5')
  await expect(page.getByTestId('live-follow')).toBeVisible()
  await page.getByTestId('live-follow').click()
  await expect(page.getByTestId('live-following')).toBeVisible()

  // A compaction lands while following: the surface shrinks to the summary plus what followed, and the graph gains it.
  await expect(page.getByTestId('surface-pane')).toHaveAttribute('data-count', '6')
  await expect(page.getByTestId('replace-node')).toHaveCount(0)
  await appendFile(path, compaction())
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-max', '9')
  await expect(page.getByTestId('surface-pane')).toHaveAttribute('data-count', '3')
  await expect(page.getByTestId('replace-node')).toHaveCount(1)
  await expect(page.locator('[data-testid=replace-node][data-seq="8"]')).toBeVisible()
  await expect(page.locator('[data-testid=surface-pane] [data-seq="8"]')).toBeVisible()

  // A replaced file is a reset: the panes start over with exactly the new log.
  await writeFile(`${path}.0123456789ab.tmp`, header('session-e2e') + user(0) + user(1) + user(2))
  await rename(`${path}.0123456789ab.tmp`, path)
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-max', '2')
  await expect(page.getByTestId('live-status')).toContainText('1 reset(s)')

  // Subagent children are openable from the status line.
  await page.getByRole('button', { name: /session-e2e-child/ }).click()
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-max', '0')
  await expect(page).toHaveURL(/[?&]session=session-e2e-child/)
})
