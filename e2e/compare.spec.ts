/**
 * The Compare view end to end (issue 38), as a user meets it: a dsh home the real harness wrote (../shared/real-dsh,
 * keyless), the same task run twice, once with `--compact`: the same transcript, a different surface. `dsh-lens`
 * serves the home; two rows picked on the sessions home open `?compare=A&with=B`; the first divergence (`surface-op`,
 * where the compacted run sent its summary) is marked and its pair opened on arrival, both requests side by side with
 * the differing message marked and its text diff; every total equals `dsh-lens diff --json`'s; the way back opens run
 * B at that step; a reload of the address lands on the same comparison.
 */

import { spawnSync } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import type { SessionComparison } from '../src/core/index.ts'
import { realDshAvailable, runHeadless } from '../src/test-support/real-dsh.ts'
import { readmeScreenshot } from './support/app.ts'
import { BIN, startDshLens, type DshLensProcess } from './support/dsh-lens-process.ts'

test.skip(!realDshAvailable(), 'real-dsh (../shared/real-dsh) is not beside the checkout')

let base: string
let home: string
let compacted: string
let full: string
let cli: SessionComparison
const running: DshLensProcess[] = []

/** The session id in a log's path (`…/session-<uuid>/session.jsonl.zstd`). */
const idOf = (path: string): string => /(session-[0-9a-f-]+)\//.exec(path)?.[1] ?? ''

test.beforeAll(async () => {
  // A cold install of the harness downloads ~180 MB (its setup.sh); a warm one is a no-op.
  test.setTimeout(600_000)
  base = await mkdtemp(join(tmpdir(), 'lens-e2e-compare-'))
  home = join(base, 'dsh')
  const workdir = join(base, 'work')
  // One after the other: the second is the newer row, and the home lists both under one project.
  compacted = await runHeadless('BIG LOOP2 go', { home, workdir, flags: ['--compact'] })
  full = await runHeadless('BIG LOOP2 go', { home, workdir })
  const diff = spawnSync(process.execPath, [BIN, 'diff', compacted, full, '--json'], { encoding: 'utf8' })
  expect(diff.stderr).toBe('')
  expect(diff.status).toBe(1)
  cli = JSON.parse(diff.stdout) as SessionComparison
})

test.afterAll(async () => {
  for (const p of running.splice(0)) await p.stop()
  await rm(base, { recursive: true, force: true })
})

/** The view shows the CLI's answer: the first divergence, the aligned rows, the picked pair, the totals. */
async function expectTheCliAnswer(page: Page): Promise<void> {
  const view = page.getByTestId('compare-view')
  await expect(view).toHaveAttribute('data-state', 'ready')
  await expect(view).toHaveAttribute('data-pairs', String(cli.pairs.length))
  const first = cli.firstDivergence
  expect(first?.kind).toBe('surface-op')
  const marked = page.getByTestId('first-divergence')
  await expect(marked).toHaveAttribute('data-kind', 'surface-op')
  await expect(marked).toHaveAttribute('data-seq-a', String(first?.a.seq))
  await expect(marked).toHaveAttribute('data-seq-b', String(first?.b.seq))
  const firstIndex = cli.pairs.findIndex((p) => !p.same)
  await expect(marked).toHaveAttribute('data-index', String(firstIndex))
  await expect(page.getByTestId('compare-parted')).not.toBeEmpty()

  // The aligned steps: one row per pair, same and kinds as the CLI's.
  const steps = page.getByTestId('compare-steps')
  const rows = steps.getByTestId('compare-pair')
  await expect(rows).toHaveCount(cli.pairs.length)
  for (const [i, pair] of cli.pairs.entries()) {
    const row = steps.locator(`[data-testid=compare-pair][data-index="${i}"]`)
    await expect(row).toHaveAttribute('data-same', String(pair.same))
    await expect(row).toHaveAttribute('data-kinds', pair.kinds.join(','))
  }
  await expect(steps.locator('[data-first=true]')).toHaveAttribute('data-index', String(firstIndex))

  // Opened on arrival: the first divergence's pair, both requests side by side, the differing message marked.
  const detail = page.getByTestId('compare-pair-detail')
  await expect(detail).toHaveAttribute('data-index', String(firstIndex))
  await expect(detail).toHaveAttribute('data-same', 'false')
  const cliPair = cli.pairs[firstIndex]
  const differsAt = cliPair?.requestDiff?.firstDifference as number
  await expect(page.getByTestId('compare-request-diff')).toHaveAttribute('data-first-difference', String(differsAt))
  for (const side of ['a', 'b'] as const) {
    const request = page.getByTestId(`compare-request-${side}`)
    await expect(request).toHaveAttribute('data-step', `${cliPair?.[side]?.turn}.${cliPair?.[side]?.step}`)
    // The message where the requests part is marked on both sides (the summary in A, what it stands for in B).
    const seq = side === 'a' ? first?.a.seq : first?.b.seq
    await expect(request.locator(`[data-seq="${seq}"] [data-testid=compare-message]`)).toHaveAttribute('data-mark', 'differs')
  }
  await expect(page.getByTestId('compare-message-diff')).toHaveAttribute('data-seq-a', String(first?.a.seq))
  await expect(page.getByTestId('compare-message-diff')).toHaveAttribute('data-seq-b', String(first?.b.seq))

  // The totals: each figure as `dsh-lens diff --json` says, and B − A.
  const totals = page.getByTestId('compare-totals')
  for (const key of ['turns', 'steps', 'inputTokens', 'outputTokens', 'cacheReadTokens', 'compactions', 'prunes'] as const) {
    const [a, b] = [cli.totals.a[key], cli.totals.b[key]]
    const row = totals.locator(`tr[data-figure=${key}]`)
    await expect(row).toHaveAttribute('data-a', a === null ? '' : String(a))
    await expect(row).toHaveAttribute('data-b', b === null ? '' : String(b))
    await expect(row).toHaveAttribute('data-delta', a === null || b === null ? '' : String(b - a))
  }
  for (const call of cli.totals.a.toolCalls)
    await expect(totals.locator(`tr[data-figure="tool:${call.name}"]`)).toHaveAttribute('data-a', String(call.calls))
  for (const call of cli.totals.b.toolCalls)
    await expect(totals.locator(`tr[data-figure="tool:${call.name}"]`)).toHaveAttribute('data-b', String(call.calls))
  expect(cli.totals.a.compactions).toBeGreaterThan(0)
}

test('Compare: two sessions picked on the home, the divergence opened on arrival, totals as the CLI says', async ({ page }) => {
  test.setTimeout(120_000)
  const lens = await startDshLens([], home)
  running.push(lens)
  await page.goto(lens.url)
  const homePage = page.getByTestId('sessions-home')
  await expect(homePage).toHaveAttribute('data-count', '2')
  const [a, b] = [idOf(compacted), idOf(full)]
  await page.locator(`[data-testid=session-row][data-session-id="${a}"]`).getByTestId('session-compare-pick').check()
  // The second pick opens the view (the home, and its checkbox, give way to it).
  await page.locator(`[data-testid=session-row][data-session-id="${b}"]`).getByTestId('session-compare-pick').click()
  await expect(page).toHaveURL(new RegExp(`\\?compare=${a}&with=${b}$`))
  await expect(page.getByTestId('compare-run-a')).toHaveAttribute('data-session-id', a)
  await expect(page.getByTestId('compare-run-b')).toHaveAttribute('data-session-id', b)
  await expectTheCliAnswer(page)
  await readmeScreenshot(page, 'compare')
  // Run A read through gives the address no cursor hash: the comparison has none.
  await expect(page).toHaveURL(new RegExp(`\\?compare=${a}&with=${b}$`))

  // A reload of the address lands on the same comparison.
  await page.reload()
  await expectTheCliAnswer(page)

  // The way back: run B opened at that step's request point, the Request view on it.
  const step = cli.pairs[cli.pairs.findIndex((p) => !p.same)]?.b
  await page.getByTestId('compare-open-b').click()
  await expect(page.getByTestId('compare-view')).toHaveCount(0)
  await expect(page).toHaveURL(new RegExp(`\\?session=${b}`))
  await expect(page.getByTestId('request-pane')).toHaveAttribute('data-step', `${step?.turn}.${step?.step}`)

  // Back returns to the comparison.
  await page.goBack()
  await expect(page.getByTestId('compare-view')).toHaveAttribute('data-state', 'ready')

  // A link that names no session says so; it never compares something else.
  await page.goto(new URL(`/?compare=ffffffff&with=${b}`, lens.url).href)
  await expect(page.getByTestId('compare-view')).toHaveAttribute('data-state', 'error')
  await expect(page.getByTestId('compare-error')).toHaveText('Cannot compare: no session ffffffff on this server.')
  await expect(page.getByTestId('compare-steps')).toHaveCount(0)
})

test('Compare with…: the log open is run A, a second file run B, the same answer as the CLI', async ({ page }) => {
  // axe computes every colour contrast: tens of seconds on a busy two-CPU machine.
  test.setTimeout(180_000)
  await page.goto('/')
  const file = async (path: string, name: string) => ({ name, mimeType: 'application/zstd', buffer: await readFile(path) })
  await page.getByTestId('file-input').setInputFiles(await file(compacted, 'compacted.jsonl.zstd'))
  await expect(page.locator('header').getByTitle('compacted.jsonl.zstd')).toBeVisible()
  await expect(page.getByTestId('compare-with-button')).toBeVisible()
  await page.getByTestId('compare-file-input').setInputFiles(await file(full, 'full.jsonl.zstd'))
  await expect(page.getByTestId('compare-run-a')).toContainText('compacted.jsonl.zstd')
  await expect(page.getByTestId('compare-run-b')).toContainText('full.jsonl.zstd')
  await expectTheCliAnswer(page)
  // axe-core's default rules (WCAG 2 A/AA and best practices): no violation on the view.
  const result = await new AxeBuilder({ page }).analyze()
  expect(result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`))).toStrictEqual([])
  // Closed, run A is the log open again.
  await page.getByTestId('compare-close').click()
  await expect(page.getByTestId('compare-view')).toHaveCount(0)
  await expect(page.getByTestId('compare-with-button')).toBeVisible()
})

test('Compare: a subagent with its parent, one click from the child’s row', async ({ page }) => {
  test.setTimeout(180_000)
  const spawnHome = join(base, 'dsh-spawn')
  await runHeadless('Fix the parser bug SPAWN', { home: spawnHome, workdir: join(base, 'spawn') })
  const lens = await startDshLens([], spawnHome)
  running.push(lens)
  await page.goto(lens.url)
  await expect(page.getByTestId('sessions-home')).toHaveAttribute('data-count', '2')
  const child = page.locator('[data-testid=session-row][data-kind=subagent]')
  const [childId, parentId] = [await child.getAttribute('data-session-id'), await child.getAttribute('data-parent-id')]
  // A root has no parent to compare with.
  await expect(page.locator('[data-testid=session-row][data-kind=root]').getByTestId('session-compare-parent')).toHaveCount(0)
  await child.getByTestId('session-compare-parent').click()
  await expect(page).toHaveURL(new RegExp(`\\?compare=${parentId}&with=${childId}$`))
  const diff = spawnSync(process.execPath, [BIN, 'diff', parentId as string, childId as string, '--json'], {
    encoding: 'utf8',
    env: { ...process.env, DSH_HOME: spawnHome },
  })
  expect(diff.stderr).toBe('')
  const answer = JSON.parse(diff.stdout) as SessionComparison
  const view = page.getByTestId('compare-view')
  await expect(view).toHaveAttribute('data-state', 'ready')
  await expect(view).toHaveAttribute('data-pairs', String(answer.pairs.length))
  const marked = page.getByTestId('first-divergence')
  await expect(marked).toHaveAttribute('data-kind', answer.firstDivergence?.kind as string)
  await expect(marked).toHaveAttribute('data-seq-a', String(answer.firstDivergence?.a.seq))
  await expect(marked).toHaveAttribute('data-seq-b', String(answer.firstDivergence?.b.seq))
  await expect(page.getByTestId('compare-totals').locator('tr[data-figure=steps]')).toHaveAttribute(
    'data-delta',
    String(answer.totals.b.steps - answer.totals.a.steps),
  )
  // Closing a served comparison returns to the home.
  await page.getByTestId('compare-close').click()
  await expect(page.getByTestId('sessions-home')).toBeVisible()
})
