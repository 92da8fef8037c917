/**
 * The sessions home's cost column (issue 37), end to end: a dsh home written by the real harness (two projects, a
 * subagent child), `dsh-lens` run as a user runs it, and `dsh-lens usage --by project --json` over the same home: each
 * row's `data-cost` is the session's own cost, each project's the total of its row, in CNY and, switched, in USD.
 */

import { spawnSync } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
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

/** `dsh-lens usage` through the real CLI process, its cache in this test's own directory. */
function usage(currency: string): UsageJson {
  const result = spawnSync(
    'node_modules/.bin/tsx',
    ['src/cli/main.ts', 'usage', join(home, 'sessions'), '--by', 'project', '--json', '--currency', currency],
    {
      cwd: new URL('..', import.meta.url).pathname,
      encoding: 'utf8',
      env: { ...process.env, XDG_CACHE_HOME: join(base, 'cache'), DSH_HOME: home },
    },
  )
  if (result.status !== 0) throw new Error(`lens usage failed: ${result.stderr}`)
  return JSON.parse(result.stdout) as UsageJson
}

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
