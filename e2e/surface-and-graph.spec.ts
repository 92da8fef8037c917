/** The surface pane and the replace graph equal the core's fold for every prefix we visit. */

import { expect, test } from '@playwright/test'
import { fixtureBytes, openLog, screenshot } from './support/app.ts'
import { expectPanesMatchCore, moveCursor } from './support/assertions.ts'
import { foldInNode } from './support/expected.ts'
import { nestedReplaceLog } from './support/generated-logs.ts'

test('agent-instructions fixture: the surface before, at and after its replace', async ({ page }) => {
  const name = 'acp--agent-instructions--session.jsonl'
  const bytes = fixtureBytes(name)
  const log = await foldInNode(bytes)
  await openLog(page, name, bytes)
  const last = log.length - 1
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-cursor', String(last))
  await expectPanesMatchCore(page, log, last)
  for (const seq of [4, 16, 17, 30]) {
    await moveCursor(page, seq)
    await expectPanesMatchCore(page, log, seq)
  }
  await moveCursor(page, last)
  // The shadowed user message is marked with the seq that shadowed it.
  await expect(page.getByTestId('transcript-pane').locator('[data-seq="5"]')).toContainText('shadowed by #17')
  await screenshot(page, 'agent-instructions')
})

test('generated prune + nested compactions: surface, graph DAG and graph clicks', async ({ page }) => {
  const { jsonl, prune, first, second } = nestedReplaceLog()
  const log = await foldInNode(jsonl)
  expect(log.fold.violations).toEqual([])
  expect(log.fold.timeline.replacements.map((r) => r.seq)).toEqual([prune, first, second])
  await openLog(page, 'nested.jsonl', jsonl)
  await expect(page.getByTestId('diagnostics')).toHaveAttribute('data-count', String(log.diagnostics.length))
  for (const seq of [log.length - 1, prune - 1, prune, first, second - 1, second]) {
    await moveCursor(page, seq)
    await expectPanesMatchCore(page, log, seq)
  }
  await moveCursor(page, log.length - 1)
  const graph = page.getByTestId('replace-graph')
  await expect(graph.locator(`[data-testid=replace-node][data-seq="${second}"]`)).toContainText('compaction summary')
  await expect(graph.locator(`[data-testid=replace-node][data-seq="${second}"]`)).toContainText('1 nested')
  await expect(graph.locator(`[data-testid=replace-node][data-seq="${prune}"]`)).toContainText('pruned tool result')
  await expect(graph.locator('.react-flow__edge')).not.toHaveCount(0)
  await screenshot(page, 'nested-graph')

  // Clicking a node moves the cursor to it and selects it.
  await graph.locator(`[data-testid=replace-node][data-seq="${first}"]`).click()
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-cursor', String(first))
  await expectPanesMatchCore(page, log, first)
  await expect(page.getByTestId('inspector')).toContainText('cmp-1')
  // The surface highlights the selected replacement, the transcript its covered messages.
  await expect(page.getByTestId('surface-pane').locator(`[data-seq="${first}"]`)).toHaveAttribute('aria-selected', 'true')
  await screenshot(page, 'nested-selected')
})

test('selecting a shadowed transcript entry points at the replacement covering it', async ({ page }) => {
  const { jsonl, second } = nestedReplaceLog()
  await openLog(page, 'nested.jsonl', jsonl)
  // seq 1 (the first user message) was swallowed by the first compaction, which the second one swallowed in turn.
  await page.getByTestId('transcript-pane').locator('[data-seq="1"]').click()
  await expect(page.getByTestId('inspector')).toContainText(`covered by`)
  await expect(
    page
      .getByTestId('inspector')
      .getByRole('button', { name: `go to seq ${second}` })
      .first(),
  ).toBeVisible()
  await expect(page.getByTestId('surface-pane').locator(`[data-seq="${second}"]`)).toHaveClass(/bg-counterpart/)
  await screenshot(page, 'counterpart')
})
