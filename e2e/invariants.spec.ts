/** Provider-invariant warnings in the diagnostics pane: code, seq, the harness companion's text, the plain explanation; a click moves the cursor. */

import { expect, test } from '@playwright/test'
import { fixtureBytes, openLog, screenshot } from './support/app.ts'
import { foldInNode } from './support/expected.ts'

test('the agent-instructions checkpoint shows the compaction companion warning at seq 17', async ({ page }) => {
  const name = 'acp--agent-instructions--session.jsonl'
  const log = await foldInNode(fixtureBytes(name))
  const expected = log.diagnostics.find((d) => d.code === 'compaction-invariant')
  expect(expected?.seq).toBe(17)
  await openLog(page, name, fixtureBytes(name))
  const pane = page.getByTestId('diagnostics')
  await expect(pane).toHaveAttribute('data-count', String(log.diagnostics.length))
  const row = pane.locator('[data-testid=diagnostic][data-code=compaction-invariant]')
  await expect(row).toHaveCount(1)
  await expect(row).toHaveAttribute('data-severity', 'warning')
  await expect(row).toHaveAttribute('data-seq', '17')
  await expect(row).toContainText(
    'invariant violated by "@deepseek-ai/dsh-compaction": compaction checkpoint has no matching compaction/start',
  )
  await expect(row).toContainText(expected?.detail ?? '(no detail)')
  await row.click()
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-cursor', '17')
  await screenshot(page, 'invariant-warning')
})
