/**
 * The sessions home's cost column (issue 37), end to end: a dsh home written by the real harness (two projects, a
 * subagent child), `dsh-lens` run as a user runs it, and `dsh-lens usage --by project --json` over the same home: each
 * row's `data-cost` is the session's own cost, each project's the total of its row, in CNY and, switched, in USD.
 * Then the same home served with `--rates FILE` (prices unlike the built-in card's): the home, the Request view's step
 * cost and the Cost mode all price with the file's card, as `dsh-lens usage|cost --rates FILE` do, and say so.
 */

import { spawnSync } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { realDshAvailable, runHeadless } from '../src/test-support/real-dsh.ts'
import { startDshLens, type DshLensProcess } from './support/dsh-lens-process.ts'

test.skip(!realDshAvailable(), 'real-dsh (../shared/real-dsh) is not beside the checkout')

interface Totals {
  cost: { total: number }
}
interface UsageJson {
  rows: (Totals & { key: string })[]
  sessions: {
    id: string
    path: string
    project: string
    cwd: string | null
    own: Totals
    subagents: { id: string; own: Totals }[]
  }[]
}

let base: string
let home: string
let lens: DshLensProcess | undefined

test.beforeAll(async () => {
  // A cold install of the harness downloads ~180 MB (its setup.sh); a warm one is a no-op.
  test.setTimeout(600_000)
  base = await mkdtemp(join(tmpdir(), 'lens-e2e-cost-home-'))
  home = join(base, 'dsh')
  await runHeadless('Fix the parser bug SPAWN', { home, workdir: join(base, 'work', 'alpha') })
  await runHeadless('Write the release notes NOTOOL', { home, workdir: join(base, 'work', 'beta') })
})

test.afterAll(async () => {
  await lens?.stop()
  await rm(base, { recursive: true, force: true })
})

/** A `dsh-lens` command through the real CLI process, its cache in this test's own directory; its JSON. */
function lensJson<T>(args: string[]): T {
  const result = spawnSync('node_modules/.bin/tsx', ['src/cli/main.ts', ...args], {
    cwd: new URL('..', import.meta.url).pathname,
    encoding: 'utf8',
    env: { ...process.env, XDG_CACHE_HOME: join(base, 'cache'), DSH_HOME: home, DSH_LENS_RATES: '' },
  })
  if (result.status !== 0) throw new Error(`lens ${args[0]} failed: ${result.stderr}`)
  return JSON.parse(result.stdout) as T
}

/** `dsh-lens usage --by project` over the test's home. */
const usage = (currency: string, more: string[] = []): UsageJson =>
  lensJson(['usage', join(home, 'sessions'), '--by', 'project', '--json', '--currency', currency, ...more])

test('the sessions home: each session and each project costs what `dsh-lens usage --by project` says', async ({ page }) => {
  test.setTimeout(120_000)
  lens = await startDshLens([], home)
  await page.goto(lens.url)
  const homePage = page.getByTestId('sessions-home')
  await expect(homePage).toHaveAttribute('data-count', '3')
  await expect(homePage).toHaveAttribute('data-state', 'ready')
  for (const currency of ['CNY', 'USD']) {
    if (currency === 'USD') await page.getByTestId('currency-USD').click()
    await expect(page.getByTestId('currency-switch')).toHaveAttribute('data-currency', currency)
    const x = usage(currency)
    // Subagents are listed under their session, with their own cost: each is a row of its own on the home.
    const each = x.sessions.flatMap((s) => [s, ...s.subagents])
    expect(each).toHaveLength(3)
    for (const s of each) {
      const row = page.locator(`[data-testid=session-row][data-session-id="${s.id}"]`)
      await expect(row).toHaveAttribute('data-cost', String(s.own.cost.total))
    }
    // The home groups by the header's cwd, usage by the project folder: the sessions say which is which.
    for (const r of x.rows) {
      const cwd = x.sessions.find((s) => s.project === r.key && s.cwd !== null)?.cwd
      expect(cwd).toBeDefined()
      const project = page.locator('[data-testid=sessions-project]', { hasText: (cwd as string).split('/').pop() as string })
      await expect(project).toHaveAttribute('data-cost', String(r.cost.total))
    }
    expect(x.rows).toHaveLength(2)
  }
})

/** A rates file replacing the card: the harness's model at round prices far from DeepSeek's, in both currencies. */
const RATES = {
  schema: 1,
  version: 'e2e-rates-1',
  checked: '2026-12-01',
  mode: 'replace',
  rates: [
    {
      provider: 'deepseek-official',
      model: 'deepseek-v4-flash',
      effectiveFrom: '2026-01-01T00:00:00Z',
      CNY: { inputMiss: 30, inputHit: 3, output: 60 },
      USD: { inputMiss: 5, inputHit: 0.5, output: 10 },
      source: ['https://example.test/pricing'],
      read: '2026-12-01',
    },
  ],
}

interface CostJson {
  rateCard: { version: string; checked: string }
  steps: { turn: number; step: number; cost: { total: number } | null }[]
  totals: { total: number }
}

test('with --rates FILE, the home, the Request view and the Cost mode all price with that card', async ({ page }) => {
  test.setTimeout(120_000)
  const rates = join(base, 'rates.json')
  await writeFile(rates, JSON.stringify(RATES, null, 2))
  await lens?.stop()
  lens = await startDshLens(['--rates', rates], home)
  await page.goto(lens.url)
  const homePage = page.getByTestId('sessions-home')
  await expect(homePage).toHaveAttribute('data-state', 'ready')
  await expect(page.getByTestId('currency-switch')).toHaveAttribute('data-currency', 'CNY')
  const builtIn = usage('CNY')
  const x = usage('CNY', ['--rates', rates])
  const session = x.sessions.find((s) => s.subagents.length === 0) as UsageJson['sessions'][number]
  // The file's prices are not the built-in card's: a page that kept its own card would show other amounts.
  expect(session.own.cost.total).not.toBe(builtIn.sessions.find((s) => s.id === session.id)?.own.cost.total)
  const row = page.locator(`[data-testid=session-row][data-session-id="${session.id}"]`)
  await expect(row).toHaveAttribute('data-cost', String(session.own.cost.total))

  // The session opened from the home: its Request view prices each step as `dsh-lens cost --rates FILE` does.
  const cost = lensJson<CostJson>(['cost', session.path, '--json', '--rates', rates])
  expect(cost.rateCard.version).toContain(rates)
  const step = cost.steps.find((s) => s.cost !== null) as CostJson['steps'][number]
  const name = `${step.turn}.${step.step}`
  await page.goto(`${new URL(lens.url).origin}/?session=${session.id}#step=${name}`)
  await expect(page.getByTestId('request-pane')).toHaveAttribute('data-step', name)
  const stepCost = page.getByTestId('step-cost')
  await expect(stepCost).toHaveAttribute('data-total', String(step.cost?.total))
  const caveat = page.getByTestId('step-cost-estimate')
  await expect(caveat).toHaveAttribute('data-card-version', cost.rateCard.version)
  await expect(caveat).toHaveAttribute('data-card-custom', 'true')
  await expect(caveat).toContainText(`rate card ${cost.rateCard.version}, prices read ${cost.rateCard.checked}`)
  await expect(caveat).toContainText('the server’s --rates card')

  // The chart strip's Cost mode: the whole session at the file's prices, and the card named.
  await page.getByTestId('chart-mode-cost').click()
  await expect(page.getByTestId('cost-chart')).toHaveAttribute('data-total', String(cost.totals.total))
  await expect(page.getByTestId('cost-estimate')).toHaveAttribute('data-card-version', cost.rateCard.version)
  await expect(page.getByTestId('cost-estimate')).toHaveAttribute('data-card-custom', 'true')
})
