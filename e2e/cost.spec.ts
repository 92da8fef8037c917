/**
 * What it cost, end to end on the bundled demo (issue 37), against `dsh-lens cost` run as a real process on the same
 * file: the Request view's step cost and the cost of its cache break at the prefix-cache mark, on the step after the
 * demo's prune (2.1) and after its first compaction (3.1), in CNY and, switched, in USD (kept in the URL and local
 * storage); the chart strip's Cost mode (the total, each compaction with its cost and pay-back); a compaction's
 * pay-back sentence in the inspector, word for word the CLI's; a log the card has no CNY price for says so and offers
 * USD.
 */

import { spawnSync } from 'node:child_process'
import { expect, test, type Page } from '@playwright/test'
import { fixtureBytes, openLog, readmeScreenshot, waitLoaded } from './support/app.ts'

const DEMO_PATH = 'public/demo/demo-session.jsonl'

interface CostJson {
  currency: string
  rateCard: { version: string; checked: string }
  steps: { turn: number; step: number; cost: { total: number } | null; breakCost: number | null; breakCause: string | null }[]
  compactions: { seq: number; summaryCost: number; breakCost: number; paidBackAtStep: string | null; balance: number | null }[]
  totals: { total: number; breakCost: number; breaks: number }
}

/** `dsh-lens cost` through the real CLI process, from the project root. */
function cli(args: string[]): string {
  const result = spawnSync('node_modules/.bin/tsx', ['src/cli/main.ts', 'cost', DEMO_PATH, ...args], {
    cwd: new URL('..', import.meta.url).pathname,
    encoding: 'utf8',
  })
  if (result.status !== 0) throw new Error(`lens cost failed: ${result.stderr}`)
  return result.stdout
}

let cached: { CNY: CostJson; USD: CostJson; text: string } | undefined
/** Three CLI runs, once per worker process. */
const expected = () =>
  (cached ??= {
    CNY: JSON.parse(cli(['--json'])) as CostJson,
    USD: JSON.parse(cli(['--json', '--currency', 'USD'])) as CostJson,
    text: cli([]),
  })

const stepOf = (json: CostJson, name: string) => {
  const step = json.steps.find((s) => `${s.turn}.${s.step}` === name)
  if (step === undefined) throw new Error(`no step ${name} in lens cost`)
  return step
}

/** The Request view's cost line and break mark say what `lens cost` says of step `name`. */
async function expectStepCost(page: Page, json: CostJson, name: string, cause: string): Promise<void> {
  const step = stepOf(json, name)
  expect(step.breakCause).toBe(cause)
  await expect(page.getByTestId('request-pane')).toHaveAttribute('data-step', name)
  const cost = page.getByTestId('step-cost')
  await expect(cost).toHaveAttribute('data-currency', json.currency)
  await expect(cost).toHaveAttribute('data-total', String(step.cost?.total))
  await expect(cost).toContainText(`rate card ${json.rateCard.version}, prices read ${json.rateCard.checked}`)
  // At the prefix-cache mark: what the break cost, and why.
  const mark = page.getByTestId('request-first-difference')
  const broke = mark.getByTestId('break-cost')
  await expect(broke).toHaveAttribute('data-cost', String(step.breakCost))
  await expect(broke).toHaveAttribute('data-cause', cause)
  await expect(mark).toContainText(/this break cost [¥$]0\.\d{4} \([\d,]+ tokens billed again\)/)
}

test('the Request view prices the step after the prune and after a compaction, in CNY and USD', async ({ page }) => {
  test.setTimeout(90_000)
  const x = expected()
  await page.goto('/#step=2.1')
  await waitLoaded(page)
  await expect(page.getByTestId('currency-switch')).toHaveAttribute('data-currency', 'CNY')
  await expectStepCost(page, x.CNY, '2.1', 'prune (seq 976)')
  await expect(page.getByTestId('step-cost')).toContainText(
    /¥0\.0063 input ¥0\.0057 cache read ¥0\.0001 output ¥0\.0005 off-peak/,
  )

  const select = page.getByTestId('request-step-select')
  const value = await select.locator('option[data-step="3.1"]').getAttribute('value')
  await select.selectOption(value ?? '')
  await expectStepCost(page, x.CNY, '3.1', 'compaction summary (seq 1555)')

  // Dollars: the same step at DeepSeek's USD prices; the choice is in the URL and survives a reload.
  await page.getByTestId('currency-USD').click()
  await expectStepCost(page, x.USD, '3.1', 'compaction summary (seq 1555)')
  await expect.poll(() => page.evaluate(() => new URL(window.location.href).searchParams.get('currency'))).toBe('USD')
  await page.reload()
  await waitLoaded(page)
  await expectStepCost(page, x.USD, '3.1', 'compaction summary (seq 1555)')
  // A page opened without it remembers the choice (local storage).
  await page.goto('/#step=2.1')
  await waitLoaded(page)
  await expect(page.getByTestId('currency-switch')).toHaveAttribute('data-currency', 'USD')
  await expectStepCost(page, x.USD, '2.1', 'prune (seq 976)')
})

test('the Cost mode: what was spent over the log, each compaction with its cost and pay-back', async ({ page }) => {
  test.setTimeout(90_000)
  const x = expected()
  await page.setViewportSize({ width: 1440, height: 900 })
  await page.goto('/')
  await waitLoaded(page)
  await page.getByTestId('chart-mode-cost').click()
  await expect(page.getByTestId('chart-mode-cost')).toHaveAttribute('aria-pressed', 'true')
  const chart = page.getByTestId('cost-chart')
  await expect(chart).toHaveAttribute('data-currency', 'CNY')
  await expect(chart).toHaveAttribute('data-total', String(x.CNY.totals.total))
  const totals = page.getByTestId('cost-totals')
  await expect(totals).toHaveAttribute('data-break-cost', String(x.CNY.totals.breakCost))
  await expect(totals).toHaveAttribute('data-breaks', String(x.CNY.totals.breaks))
  await expect(totals).toContainText('spent ¥0.16')
  await expect(page.getByTestId('cost-estimate')).toContainText(
    `rate card ${x.CNY.rateCard.version}, prices read ${x.CNY.rateCard.checked}`,
  )
  // Each compaction: its cost (summary call + cache break) and whether it paid back, as `lens cost --json` has them.
  const marks = page.getByTestId('cost-compaction')
  await expect(marks).toHaveCount(x.CNY.compactions.length)
  for (const c of x.CNY.compactions) {
    const mark = page.locator(`[data-testid=cost-compaction][data-seq="${c.seq}"]`)
    await expect(mark).toHaveAttribute('data-cost', String(Math.round((c.summaryCost + c.breakCost) * 1e10) / 1e10))
    await expect(mark).toHaveAttribute('data-paid-back-at', c.paidBackAtStep ?? '')
    await expect(mark).toHaveAttribute('data-balance', String(c.balance))
  }
  // Hovering the plot names the call under the pointer and what was spent up to it.
  const plot = page.getByTestId('cost-chart-plot')
  const box = await plot.boundingBox()
  if (box === null) throw new Error('no plot')
  await page.mouse.move(box.x + box.width * 0.4, box.y + box.height / 2)
  await expect(page.getByTestId('cost-hover')).toHaveText(/^step \d+\.\d+ · ¥0\.\d{4} · spent so far ¥0\.\d+/)
  await readmeScreenshot(page, 'cost-mode', undefined, 'docs/images')

  // A compaction's label selects it: the inspector says its pay-back in the CLI's words.
  const first = x.CNY.compactions[0] as CostJson['compactions'][number]
  await page.locator(`[data-testid=cost-compaction][data-seq="${first.seq}"]`).click()
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-cursor', String(first.seq))
  const said = new RegExp(`compaction +seq ${first.seq}: (.*)`).exec(x.text)?.[1]
  expect(said).toMatch(/^cost ¥0\.\d{4} \(summary ¥0\.\d{4} \+ cache break ¥0\.\d{4}\); not paid back: -¥0\.\d{4} at the end$/)
  const payBack = page.getByTestId('compaction-cost')
  await expect(payBack).toHaveAttribute('data-seq', String(first.seq))
  await expect(payBack.getByTestId('payback-sentence')).toHaveText(said as string)
  await payBack.scrollIntoViewIfNeeded()
  await readmeScreenshot(page, 'compaction-pay-back', undefined, 'docs/images')

  // In dollars, the strip and the inspector follow.
  await page.getByTestId('currency-USD').click()
  await expect(chart).toHaveAttribute('data-total', String(x.USD.totals.total))
  await expect(payBack).toHaveAttribute('data-currency', 'USD')
  await expect(payBack.getByTestId('payback-sentence')).toHaveText(/^cost \$0\.\d{4} \(summary \$0\.\d{4}/)
})

test('a log the card prices only in USD says so in CNY, and offers USD', async ({ page }) => {
  // A harness fixture (July 2026): DeepSeek published CNY prices only from 2026-09-09 16:00 UTC.
  await openLog(page, 'fixture.jsonl', fixtureBytes('acp--advanced-toolchain--session.jsonl'))
  await page.getByTestId('chart-mode-cost').click()
  const totals = page.getByTestId('cost-totals')
  await expect(totals).toHaveAttribute('data-unpriced-steps', '6')
  await expect(totals).toContainText('spent no price')
  await expect(page.getByTestId('cost-unpriced')).toContainText('no CNY price for model deepseek-v4-flash')
  await page.getByTestId('cost-currency-hint').click()
  await expect(page.getByTestId('currency-switch')).toHaveAttribute('data-currency', 'USD')
  await expect(totals).toHaveAttribute('data-unpriced-steps', '0')
  await expect(page.getByTestId('cost-unpriced')).toHaveCount(0)
})
