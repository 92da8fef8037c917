/**
 * What a compaction forgot (issue 31 §3) on the bundled demo's two summaries: selecting a summary, on the model
 * surface or in the replace graph, shows `[data-testid=summary-forgot]` with the core's facts (`lens compactions`),
 * each a link to where it was last said.
 */

import { readFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import { compactionsForgot, type CompactionForgot } from '../src/core/index.ts'
import { clipTo, readmeScreenshot, waitLoaded } from './support/app.ts'
import { foldInNode } from './support/expected.ts'

const count = (c: CompactionForgot) =>
  c.forgot.files.length +
  c.forgot.todos.length +
  (c.forgot.goal === null ? 0 : 1) +
  (c.forgot.lastUserRequest === null ? 0 : 1) +
  c.forgot.unansweredCalls.length

test("summary-forgot on the demo's compactions, from the surface and from the graph", async ({ page }) => {
  const log = await foldInNode(readFileSync(new URL('../public/demo/demo-session.jsonl', import.meta.url)))
  const summaries = compactionsForgot(log)
  expect(summaries.length).toBe(2)
  await page.setViewportSize({ width: 1440, height: 900 })
  await page.goto('/')
  await waitLoaded(page)
  // The newest summary, picked on the model surface (the demo opens at its end).
  const newest = summaries[1] as CompactionForgot
  await page.getByTestId('surface-pane').locator(`[role=option][data-seq="${newest.seq}"]`).click()
  const panel = page.getByTestId('summary-forgot')
  await expect(panel).toHaveAttribute('data-count', String(count(newest)))
  const items = panel.getByTestId('forgot-item')
  await expect(items).toHaveCount(count(newest))
  for (const file of newest.forgot.files)
    await expect(panel.locator(`[data-testid=forgot-item][data-kind=file][data-seq="${file.seq}"]`)).toContainText(file.path)
  await expect(panel).toContainText('not mentioned in the summary')
  await expect(panel).not.toContainText(/\blost\b/)
  // The README's picture: the chart strip folded so the inspector is taller, framed from the selected summary on
  // the model surface to the inspector's facts.
  await page.getByTestId('context-chart-toggle').click()
  await expect(page.getByTestId('context-chart-toggle')).toHaveAttribute('aria-expanded', 'false')
  await panel.scrollIntoViewIfNeeded()
  await readmeScreenshot(page, 'summary-forgot', await clipTo(page.getByTestId('surface-pane'), page.getByTestId('inspector')))
  // The older summary, picked in the replace graph.
  const older = summaries[0] as CompactionForgot
  await page.getByTestId('replace-graph').locator(`[data-testid=replace-node][data-seq="${older.seq}"]`).click()
  await expect(page.getByTestId('inspector')).toContainText(`#${older.seq}`)
  await expect(panel).toHaveAttribute('data-count', String(count(older)))
  const request = older.forgot.lastUserRequest
  expect(request).not.toBeNull()
  const link = panel.locator(`[data-testid=forgot-item][data-kind=request][data-seq="${request?.seq}"]`)
  await expect(link).toContainText((request?.text ?? '').slice(0, 40))
  // Its link goes to where the request was said.
  await link.getByRole('button').click()
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-cursor', String(request?.seq))
})
