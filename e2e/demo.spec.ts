/** The bundled demo as a newcomer first sees it: the facts asserted here are computed from the demo's own bytes. */

import { expect, test } from '@playwright/test'
import { demoSessions, toJsonl } from '../src/generate/index.ts'
import { foldInNode } from './support/expected.ts'
import { readmeScreenshot, waitLoaded } from './support/app.ts'

const { parent, children } = demoSessions()

test('the demo opens at its end: the surface, the replacements and the first request as the fold says', async ({ page }) => {
  const log = await foldInNode(toJsonl(parent))
  await page.goto('/')
  await waitLoaded(page)
  await expect(page.getByTestId('app')).toHaveAttribute('data-load-state', 'ready')
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-max', String(log.length - 1))
  await expect(page.getByTestId('surface-pane')).toHaveAttribute(
    'data-count',
    String(log.surfaceSeqsAfter(log.length - 1).length),
  )
  await expect(page.getByTestId('replace-node')).toHaveCount(log.replacementsAfter(log.length - 1).length)
  await expect(page.getByTestId('diagnostics')).toHaveAttribute('data-count', '0')
  // The first thing a newcomer reads is the user's request, in words.
  await expect(page.getByText('drops the last row when the file doesn', { exact: false }).first()).toBeVisible()
  // The README's first picture: the newest compaction summary picked on the surface, its inspector beside it.
  await page.setViewportSize({ width: 1440, height: 900 })
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.getByRole('button', { name: 'Dark theme' }).click()
  await page.getByTestId('surface-pane').locator('[role=option][data-seq]').first().click()
  await expect(page.getByTestId('inspector')).not.toContainText('Select an entry')
  await readmeScreenshot(page, 'overview')
})

test('the demo subagent child is served beside it and opens clean', async ({ page }) => {
  const child = children[0]
  expect(child?.header.parentSession).toBe(parent.header.id)
  const log = await foldInNode(toJsonl(child as (typeof children)[number]))
  await page.goto(`/?log=/demo/subagents/${child?.header.id}/session.jsonl`)
  await waitLoaded(page)
  await expect(page.getByTestId('app')).toHaveAttribute('data-load-state', 'ready')
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-max', String(log.length - 1))
  await expect(page.getByTestId('diagnostics')).toHaveAttribute('data-count', '0')
})
