/** Loading: drop (plain and zstd), ?log=, a legacy fixture, a broken log, and hostile content rendered as text. */

import { expect, test } from '@playwright/test'
import { dropFile, fixtureBytes, openLog, screenshot, waitLoaded } from './support/app.ts'
import { foldInNode } from './support/expected.ts'
import { hostileLog } from './support/generated-logs.ts'

test('opens the bundled demo when no log is given', async ({ page }) => {
  await page.goto('/')
  await waitLoaded(page)
  await expect(page.getByTestId('app')).toHaveAttribute('data-load-state', 'ready')
  await expect(page.getByTestId('surface-pane')).not.toHaveAttribute('data-count', '0')
  await screenshot(page, 'demo')
})

test('loads a dropped log, then a dropped zstd log replaces it', async ({ page }) => {
  await page.goto('/')
  await waitLoaded(page)
  const plain = fixtureBytes('acp--bash-tool-turn--session.jsonl')
  const log = await foldInNode(plain)
  await dropFile(page, 'session.jsonl', plain)
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-max', String(log.length - 1))
  await expect(page.getByTestId('app')).toHaveAttribute('data-load-state', 'ready')
  await expect(page.getByTestId('surface-pane')).toHaveAttribute(
    'data-count',
    String(log.surfaceSeqsAfter(log.length - 1).length),
  )

  const zstd = fixtureBytes('zstd/acp--agent-instructions--session.jsonl.zstd')
  const zlog = await foldInNode(zstd)
  await dropFile(page, 'session.jsonl.zstd', zstd)
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-max', String(zlog.length - 1))
  await expect(page.getByTestId('surface-pane')).toHaveAttribute(
    'data-count',
    String(zlog.surfaceSeqsAfter(zlog.length - 1).length),
  )
  await expect(page.getByText('zstd', { exact: false }).first()).toBeVisible()
  await expect(page.getByTestId('replace-node')).toHaveCount(1)
  await screenshot(page, 'dropped-zstd')
})

test('loads through the hidden file input', async ({ page }) => {
  await page.goto('/')
  await waitLoaded(page)
  const bytes = fixtureBytes('acp--fs-read--session.jsonl')
  const log = await foldInNode(bytes)
  await page.getByTestId('file-input').setInputFiles({ name: 'session.jsonl', mimeType: 'text/plain', buffer: bytes })
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-max', String(log.length - 1))
})

test('a legacy web-- fixture loads, labels upgraded events and shows its diagnostics', async ({ page }) => {
  const name = 'web--code-mode-round--session.jsonl'
  const log = await foldInNode(fixtureBytes(name))
  expect(log.upgradedEvents).toBeGreaterThan(0)
  await openLog(page, name, fixtureBytes(name), '#seq=238&sel=205')
  await expect(page.getByTestId('app')).toHaveAttribute('data-load-state', 'ready')
  await expect(page.getByTestId('diagnostics')).toHaveAttribute('data-count', String(log.diagnostics.length))
  await expect(page.getByText('legacy events upgraded')).toBeVisible()
  const inspector = page.getByTestId('inspector')
  await expect(inspector.getByText('legacy event, upgraded in memory')).toBeVisible()
  await expect(inspector.getByTestId('inspector-disk-json')).toContainText('"content"')
  await screenshot(page, 'legacy')
})

test('a broken log (garbage line) loads what parses and lists the defect with its line', async ({ page }) => {
  const lines = fixtureBytes('acp--agent-instructions--session.jsonl').toString('utf8').split('\n')
  lines.splice(5, 0, '{"this is": not json')
  const broken = lines.join('\n')
  const log = await foldInNode(broken)
  expect(log.diagnostics.length).toBeGreaterThan(0)
  await openLog(page, 'broken.jsonl', broken)
  await expect(page.getByTestId('diagnostics')).toHaveAttribute('data-count', String(log.diagnostics.length))
  const first = log.diagnostics[0]
  await expect(
    page
      .getByTestId('diagnostics')
      .getByText(first?.message ?? '', { exact: true })
      .first(),
  ).toBeVisible()
  await expect(page.getByTestId('diagnostics').getByText(`line ${first?.line}`).first()).toBeVisible()
  await expect(page.getByTestId('reject-banner')).toContainText('The harness would reject this log')
  await expect(page.getByTestId('surface-pane')).not.toHaveAttribute('data-count', '0')
  // Clicking a diagnostic with an event moves the cursor to it.
  const withIndex = log.diagnostics.find((d) => typeof d.index === 'number')
  if (withIndex !== undefined) {
    // Click that diagnostic's own row: the first rows may be defects with no event (the header's, a bad line).
    await page.getByTestId('diagnostics').getByRole('option').nth(log.diagnostics.indexOf(withIndex)).click()
    await expect(page.getByTestId('timeline')).toHaveAttribute('data-cursor', String(withIndex.index))
  }
  await screenshot(page, 'broken')
})

test('a file that is not a log says why in plain words', async ({ page }) => {
  await openLog(page, 'not-a-log.jsonl', '<html><body>nope</body></html>\n')
  await expect(page.getByTestId('app')).toHaveAttribute('data-load-state', 'error')
  await expect(page.getByTestId('reject-banner')).toBeVisible()
  await expect(page.getByTestId('diagnostics')).not.toHaveAttribute('data-count', '0')
})

test('a ?log= URL that serves a web page instead of a log is named as such', async ({ page }) => {
  // vite preview answers unknown paths with index.html (200, text/html).
  await page.goto('/?log=/no-such-log.jsonl')
  await expect(page.getByTestId('app')).toHaveAttribute('data-load-state', 'error')
  await expect(page.getByTestId('reject-banner')).toContainText('the server sent an HTML page, not a session log')
})

test('hostile content renders as text, never as markup', async ({ page }) => {
  const jsonl = hostileLog()
  await openLog(page, 'hostile.jsonl', jsonl)
  await expect(
    page.getByTestId('transcript-pane').getByText('<script>window.__pwned = 1</script>', { exact: false }),
  ).toBeVisible()
  await expect(page.getByTestId('surface-pane').getByText('<iframe src="javascript:window.__pwned=3"></iframe>')).toBeVisible()
  await page.getByTestId('transcript-pane').getByLabel('log-only events').check()
  await expect(page.getByTestId('transcript-pane').getByText('<img src=x onerror="window.__pwned=4">')).toBeVisible()
  expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined()
  expect(await page.locator('main img, main iframe, main script, main b').count()).toBe(0)
  await screenshot(page, 'hostile')
})
