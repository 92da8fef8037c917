/**
 * The Compare view's first screen where the user stands (issue 38): the built viewer in Chromium, run A (a 280k-event
 * log) open and read, then "Compare with…" run B (its twin, the answer of the middle step changed: compare-lane.ts's
 * `middle` pair). Measured from B chosen to the first screen: the first divergence marked, its pair's two requests
 * side by side and the first rows of the aligned steps drawn. B's load, the comparison and every answer run in the
 * worker; the figure that matters is the main thread's: the longest task and the long tasks (> 50 ms) over that span
 * and one second after it. PASS when no task is over 50 ms.
 *
 * `npx tsx src/bench/compare-view-lane.ts [--dist dist] [--port 4838] [--rounds 3]` after `npm run build`; it writes
 * `.bench/compare-view-latest.json`. The logs are compare-lane.ts's, generated once under .bench/logs.
 */

import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { chromium } from '@playwright/test'
import { chromiumLaunchOptions } from '../../e2e/support/chromium.ts'
import { endFrames, startFrames, TASK_TARGET_MS, waitReady, withBootedPage, type Phase } from './page-probes.ts'
import { twinPair } from './compare-lane.ts'
import { fmt, median, table } from './measure.ts'

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? process.argv[i + 1] : undefined
}

const PORT = Number(option('port') ?? 4838)
const DIST = option('dist') ?? 'dist'
const ROUNDS = Number(option('rounds') ?? 3)

interface Round {
  /** From B chosen to the first screen drawn (ms). */
  readonly firstScreenMs: number
  readonly phase: Phase
  readonly pairs: number
  readonly kind: string
  /** Each long task: when it started after B was chosen, and how long it took (ms). */
  readonly tasks: readonly (readonly [number, number])[]
  /** The same span with nothing asked, just before: what the machine's load alone does. */
  readonly idle: Phase
}

async function waitForServer(url: string, child: ChildProcess): Promise<void> {
  // Up to 3 min: on a loaded shared machine vite preview can take far longer than its usual second to listen.
  for (let i = 0; i < 900; i++) {
    if (child.exitCode !== null) throw new Error(`vite preview exited with ${child.exitCode}`)
    if (
      await fetch(url)
        .then((r) => r.ok)
        .catch(() => false)
    )
      return
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error('vite preview did not start')
}

async function main(): Promise<void> {
  mkdirSync('.bench/logs', { recursive: true })
  const pair = twinPair('middle', '.bench/logs')
  // Own process group, so exactly this server (and nothing else) is stopped at the end.
  const preview = spawn(
    'npx',
    [
      'vite',
      'preview',
      '--config',
      'src/bench/bench-preview.config.ts',
      '--outDir',
      DIST,
      '--port',
      String(PORT),
      '--strictPort',
    ],
    { stdio: 'ignore', detached: true },
  )
  const rounds: Round[] = []
  try {
    const base = `http://localhost:${PORT}`
    await waitForServer(`${base}/`, preview)
    const browser = await chromium.launch(chromiumLaunchOptions())
    try {
      for (let r = 0; r < ROUNDS; r++) {
        process.stderr.write(`[compare-view] round ${r + 1} of ${ROUNDS}\n`)
        rounds.push(
          await withBootedPage(browser, base, async (page) => {
            await page.getByTestId('file-input').setInputFiles(resolve(pair.a))
            await waitReady(page)
            await page.getByTestId('compare-with-button').waitFor({ timeout: 600_000 })
            // Run A's own tail (charts, graph) settles first: its work is not the comparison's.
            await page.waitForTimeout(2000)
            const idleStart = await startFrames(page)
            await page.waitForTimeout(3000)
            const idle = await endFrames(page, idleStart)
            const start = await startFrames(page)
            await page.getByTestId('compare-file-input').setInputFiles(resolve(pair.b))
            await page.waitForFunction(
              () =>
                document.querySelector('[data-testid=first-divergence]') !== null &&
                document.querySelector('[data-testid=compare-request-a] [data-testid=compare-message]') !== null &&
                document.querySelector('[data-testid=compare-steps] [data-testid=compare-pair][data-same]') !== null,
              undefined,
              { timeout: 600_000, polling: 'raf' },
            )
            const firstScreenMs = (await page.evaluate(() => performance.now())) - start
            await page.waitForTimeout(1000)
            const phase = await endFrames(page, start)
            const view = page.getByTestId('compare-view')
            const tasks = await page.evaluate(
              (t0) =>
                (window as unknown as { __lane: { longtasks: [number, number][] } }).__lane.longtasks
                  .filter(([t]) => t >= t0)
                  .map(([t, d]): [number, number] => [Math.round(t - t0), Math.round(d)]),
              start,
            )
            return {
              tasks,
              idle,
              firstScreenMs,
              phase,
              pairs: Number(await view.getAttribute('data-pairs')),
              kind: (await page.getByTestId('first-divergence').getAttribute('data-kind')) ?? '',
            }
          }),
        )
      }
    } finally {
      await browser.close()
    }
  } finally {
    if (preview.pid !== undefined) process.kill(-preview.pid, 'SIGTERM')
  }
  const pass = rounds.every((r) => r.phase.longTasks === 0 && r.phase.longestTaskMs <= TASK_TARGET_MS)
  const report = [
    `Compare view (issue 38: two 280k-event runs, "Compare with…" B while A is open; the comparison in the worker, no main-thread task over ${TASK_TARGET_MS} ms): ${pass ? 'PASS' : 'MISS'}`,
    table(
      [
        'round',
        'B chosen → first screen',
        'longest task',
        'long tasks (at ms: ms)',
        'frame p95 / max',
        'idle 3 s: longest',
        'pairs',
        'first divergence',
      ],
      rounds.map((r, i) => [
        String(i + 1),
        `${fmt(r.firstScreenMs, 0)} ms`,
        `${fmt(r.phase.longestTaskMs, 0)} ms`,
        `${r.phase.longTasks}${r.tasks.length === 0 ? '' : ` (${r.tasks.map(([t, d]) => `${t}: ${d}`).join(', ')})`}`,
        `${fmt(r.phase.p95)} / ${fmt(r.phase.max)} ms`,
        `${fmt(r.idle.longestTaskMs, 0)} ms`,
        String(r.pairs),
        r.kind,
      ]),
    ),
    `median first screen: ${fmt(median(rounds.map((r) => r.firstScreenMs)), 0)} ms`,
  ].join('\n')
  process.stdout.write(report + '\n')
  writeFileSync(
    '.bench/compare-view-latest.json',
    JSON.stringify({ when: new Date().toISOString(), rounds, pass, report }, null, 2),
  )
}

await main()
