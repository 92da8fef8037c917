/**
 * What changed in a message (issue 31 §2) on the bundled demo: the step right after the tool-result prune shows the
 * text difference between the pruned result and the original at the same position in the previous request, the
 * original's lines marked removed, the pruned text added, long unchanged runs collapsed.
 */

import { readFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import { stepList, stepRequest } from '../src/core/index.ts'
import { waitLoaded } from './support/app.ts'
import { foldInNode } from './support/expected.ts'

test("the prune's text diff on the demo", async ({ page }) => {
  const log = await foldInNode(readFileSync(new URL('../public/demo/demo-session.jsonl', import.meta.url)))
  const steps = stepList(log)
  const prune = log.fold.timeline.replacements.find((_, i) => log.replacementLinks[i]?.kind === 'prune')
  expect(prune).toBeDefined()
  const position = steps.findIndex((_, p) => stepRequest(log, p)?.diff.replacedBy.some((r) => r.seq === prune?.seq))
  const step = steps[position] as (typeof steps)[number]
  const request = stepRequest(log, position)
  const index = request?.messages.findIndex((m) => m.seq === prune?.seq) as number
  const previous = stepRequest(log, position - 1)?.messages[index]?.seq
  expect(previous).toBe(prune?.shadowedSeqs[0])

  await page.goto(`/#step=${step.turn}.${step.step}`)
  await waitLoaded(page)
  const diff = page.getByTestId('request-message-diff')
  await expect(diff).toHaveAttribute('data-seq', String(prune?.seq))
  await expect(diff).toHaveAttribute('data-previous-seq', String(previous))
  await expect(diff).toHaveAttribute('data-index', String(index))
  await expect(diff).toContainText(`message ${index} changed`)
  await expect(diff.locator('[data-kind=removed]').first()).toBeVisible()
  await expect(diff.locator('[data-kind=added]')).toContainText('tool output pruned')
  await expect(diff.locator('del')).not.toHaveCount(0)
  await expect(diff.locator('ins')).not.toHaveCount(0)
})
