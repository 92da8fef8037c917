/**
 * The Compare view on a fork and its parent (issue 38), and on a run that grew since it was compared. A real `dsh web`
 * host (../shared/real-dsh, keyless) on a private home: a parent session answers one prompt, the host's own
 * `session.fork` (the web UI's "fork from here") forks it, and the fork is prompted another way. `dsh-lens` serves
 * that home:
 * - the fork's row offers "vs parent": one click opens `?compare=PARENT&with=FORK`, the seed is one block (the
 *   status names it), and the view gives `dsh-lens diff --json`'s answer (the parent stopped after the seed: `length`);
 * - the parent is prompted again: a served comparison is of the logs as they were read, so a reload compares them as
 *   they are now (they part at the first prompt after the seed: `user-message`), again as the CLI says;
 * - the parent opened and followed, "Compare…" with the fork's file: when the parent grows under the view, the view
 *   says by how much, and "compare again" gives the CLI's answer on the grown log.
 */

import { spawnSync } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { expect, test, type Page } from '@playwright/test'
import type { SessionComparison } from '../src/core/index.ts'
import { realDshAvailable } from '../src/test-support/real-dsh.ts'
import { createRealHost, type RealHost } from '../src/test-support/real-dsh-host.ts'
import { BIN, startDshLens, type DshLensProcess } from './support/dsh-lens-process.ts'

test.skip(!realDshAvailable(), 'real-dsh (../shared/real-dsh) is not beside the checkout')

let host: RealHost
let lens: DshLensProcess
let parentId: string
let forkId: string
let seedLength: number

test.beforeAll(async () => {
  // A cold install of the harness downloads ~180 MB (its setup.sh); a warm one is a no-op.
  test.setTimeout(600_000)
  host = await createRealHost({ delayMs: 0 })
  await host.start()
  parentId = await host.prompt('new', 'NOTOOL first question')
  await host.settled(parentId, 1)
  forkId = (await host.rpc('session.fork', { sessionId: parentId }))['sessionId'] as string
  await host.prompt(forkId, 'NOTOOL another way')
  seedLength = (await host.settled(forkId, 2)).header?.seedLength as number
  lens = await startDshLens([], host.home)
})

test.afterAll(async () => {
  await lens?.stop()
  await host?.remove()
})

/** `dsh-lens diff A B --json` on session ids of the host's home (or files). */
function cliDiff(a: string, b: string): SessionComparison {
  const diff = spawnSync(process.execPath, [BIN, 'diff', a, b, '--json'], {
    encoding: 'utf8',
    env: { ...process.env, DSH_HOME: host.home },
  })
  expect(diff.stderr).toBe('')
  expect(diff.status).toBe(1)
  return JSON.parse(diff.stdout) as SessionComparison
}

/** The view holds `answer`: its pairs, each row's sameness and kinds, and the first divergence marked. */
async function expectAnswer(page: Page, answer: SessionComparison): Promise<void> {
  const view = page.getByTestId('compare-view')
  await expect(view).toHaveAttribute('data-state', 'ready')
  await expect(view).toHaveAttribute('data-pairs', String(answer.pairs.length))
  const first = answer.firstDivergence
  const marked = page.getByTestId('first-divergence')
  await expect(marked).toHaveAttribute('data-kind', first?.kind as string)
  await expect(marked).toHaveAttribute('data-seq-a', String(first?.a.seq))
  await expect(marked).toHaveAttribute('data-seq-b', String(first?.b.seq))
  const rows = page.getByTestId('compare-steps').getByTestId('compare-pair')
  await expect(rows).toHaveCount(answer.pairs.length)
  for (const [i, pair] of answer.pairs.entries()) {
    const row = page.locator(`[data-testid=compare-pair][data-index="${i}"]`)
    await expect(row).toHaveAttribute('data-same', String(pair.same))
    await expect(row).toHaveAttribute('data-kinds', pair.kinds.join(','))
  }
}

test('a fork and its parent from the home, compared again after the parent grew', async ({ page }) => {
  test.setTimeout(300_000)
  expect(seedLength).toBeGreaterThan(0)
  await page.goto(lens.url)
  await expect(page.getByTestId('sessions-home')).toHaveAttribute('data-count', '2')
  const forkRow = page.locator(`[data-testid=session-row][data-session-id="${forkId}"]`)
  await expect(forkRow).toHaveAttribute('data-kind', 'fork')
  await expect(forkRow).toHaveAttribute('data-parent-id', parentId)
  await forkRow.getByTestId('session-compare-parent').click()
  await expect(page).toHaveURL(new RegExp(`\\?compare=${parentId}&with=${forkId}$`))

  // The parent stopped where the fork was made: nothing after the seed is paired, and the seed is one block.
  const before = cliDiff(parentId, forkId)
  expect(before.fork).toStrictEqual({ parent: parentId, seedLength })
  expect(before.firstDivergence?.kind).toBe('length')
  for (const pair of before.pairs) expect(pair.b?.atSeq).toBeGreaterThan(seedLength)
  await expectAnswer(page, before)
  await expect(
    page.getByTestId('compare-steps').getByTitle(`the first ${seedLength} events are shared, compared once`),
  ).toContainText('fork seed')

  // The parent answers another prompt. The view compared the logs as they were; a reload compares them as they are.
  await host.prompt(parentId, 'NOTOOL second question')
  await host.settled(parentId, 2)
  const after = cliDiff(parentId, forkId)
  expect(after.fork).toStrictEqual({ parent: parentId, seedLength })
  expect(after.firstDivergence?.kind).toBe('user-message')
  await page.reload()
  await expectAnswer(page, after)
})

test('Compare… beside a followed session: the session grows, the view says so, compare again is the CLI’s answer', async ({
  page,
}) => {
  test.setTimeout(300_000)
  await page.goto(lens.url)
  await page.locator(`[data-testid=session-row][data-session-id="${parentId}"]`).click()
  await expect(page).toHaveURL(new RegExp(`\\?session=${parentId}(#|$)`))
  await expect(page.getByTestId('live-status')).toHaveAttribute('data-status', 'live')
  await expect(page.getByTestId('compare-with-button')).toBeVisible()
  const forkLog = await host.logPath(forkId)
  const file = { name: 'fork.jsonl.zstd', mimeType: 'application/zstd', buffer: await readFile(forkLog) }
  await page.getByTestId('compare-file-input').setInputFiles(file)
  await expect(page.getByTestId('compare-run-b')).toContainText('fork.jsonl.zstd')
  const parentLog = await host.logPath(parentId)
  const before = cliDiff(parentLog, forkLog)
  await expectAnswer(page, before)
  await expect(page.getByTestId('compare-refresh')).toHaveCount(0)
  await expect(page.getByTestId('compare-grown')).toHaveCount(0)

  // The followed run A grows under the view: it says by how many events, and compares again when asked. (This
  // worker's first test may have prompted the parent already: count its turns now.)
  const now = await host.settled(parentId, 1)
  const turns = now.turns.turns.length
  await host.prompt(parentId, 'NOTOOL third question')
  await host.settled(parentId, turns + 1)
  const grownText = async (): Promise<string> => {
    const length = (await host.settled(parentId, turns + 1)).length
    return `A has ${length - now.length} more events since compared`
  }
  await expect.poll(async () => (await page.getByTestId('compare-grown').textContent()) === (await grownText())).toBe(true)
  const refresh = page.getByTestId('compare-refresh')
  await expect(refresh).toBeVisible()
  // Until asked, the view keeps the comparison it made; the CLI's answer on the grown log is another.
  await expectAnswer(page, before)
  const after = cliDiff(parentLog, forkLog)
  expect(after.pairs).not.toStrictEqual(before.pairs)
  await refresh.click()
  await expectAnswer(page, after)
  await expect(page.getByTestId('compare-refresh')).toHaveCount(0)
  await expect(page.getByTestId('compare-grown')).toHaveCount(0)
})
