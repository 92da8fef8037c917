/**
 * Live from the real harness: `serve --dsh <host>` attached to a real `dsh web` (../shared/real-dsh, keyless, scripted
 * model) → the host's sessions with titles → open one → prompt.sh drives a turn → the page follows it chunk by chunk →
 * a subagent appears (SPAWN) → the host is stopped and started again mid-turn → the page resumes with no gap and no
 * duplicate → at the end the page's last seq and surface equal the harness's fold of the file on disk.
 */

import { spawn, type ChildProcess } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test, type Page } from '@playwright/test'
import { createRealHost, realDshAvailable, type RealHost } from '../src/test-support/real-dsh-host.ts'
import { harnessFoldOf, viewOf } from '../src/test-support/log-view.ts'
import { readmeScreenshot, renderedEntries } from './support/app.ts'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const DIST = process.env['E2E_DIST'] ?? 'dist'

let host: RealHost
let lens: ChildProcess | undefined
let viewerUrl: string
let first: string

/** `serve --dsh URL` as a process (the real command line); resolves with the URL it prints. */
function startLens(dshUrl: string, home: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('node_modules/.bin/tsx', ['src/cli/main.ts', 'serve', '--dsh', dshUrl, '--port', '0', '--dist', DIST], {
      cwd: ROOT,
      // Any content index serve builds goes beside the test's dsh home (private), never in the user's cache.
      env: { ...process.env, DSH_HOME: home, XDG_CACHE_HOME: join(home, '..', 'lens-cache') },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    lens = child
    let out = ''
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString()
      const url = /^open: (\S+)$/m.exec(out)?.[1]
      if (url !== undefined) resolve(url)
    })
    child.stderr.on('data', (b: Buffer) => process.stderr.write(b))
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)))
  })
}

async function fileView(sessionId: string) {
  return viewOf([new Uint8Array(await readFile(await host.logPath(sessionId)))])
}

/** Every value the timeline's `data-max` took while the page ran: a turn followed chunk by chunk paints many. */
async function recordTimelineMax(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __maxes: number[] }
    w.__maxes = []
    new MutationObserver((records) => {
      for (const r of records) {
        const value = (r.target as Element).getAttribute('data-max')
        if (r.attributeName === 'data-max' && value !== null) w.__maxes.push(Number(value))
      }
    }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-max'] })
  })
}

test.beforeAll(async () => {
  test.skip(!realDshAvailable(), 'the real harness is not beside this checkout')
  test.setTimeout(600_000)
  host = await createRealHost()
  await host.start()
  first = await host.prompt('new', 'NOTOOL hello there')
  viewerUrl = await startLens(host.url, host.home)
})

test.afterAll(async () => {
  lens?.kill('SIGTERM')
  await host?.remove()
})

test('attach to dsh web: list, follow a turn live, a subagent, the host restarted mid-turn, equal to the file', async ({
  page,
}) => {
  test.setTimeout(360_000)
  await page.goto(viewerUrl)
  const row = page.locator(`[data-testid=session-node][data-session-id="${first}"]`)
  await expect(row).toContainText('Mock: NOTOOL hello there')
  await expect(row.getByTestId('session-source')).toHaveAttribute('data-source', 'dsh-web')
  await row.getByTestId('session-option').click()

  const status = page.getByTestId('live-status')
  await expect(status).toHaveAttribute('data-status', 'live')
  await expect(status).toHaveAttribute('data-source', 'dsh-web')
  await expect(page.getByTestId('live-upstream')).toHaveAttribute('data-upstream', 'connected')
  await expect(page.getByTestId('live-title')).toHaveText('Mock: NOTOOL hello there')
  const before = await fileView(first)
  await expect(page.getByTestId('live-last-seq')).toHaveText(`last seq ${before.events.length - 1}`)

  // A turn, followed as the host streams it; it starts a subagent, which appears under the session as it starts.
  await recordTimelineMax(page)
  // SLOW150: the mock waits 150 ms more before each chunk, so the turn is still streaming when the host is stopped.
  await host.prompt(first, 'SPAWN LOOP3 SLOW150 follow me')
  await expect(page.getByTestId('live-running')).toBeVisible()
  await expect(status.getByRole('button', { name: /↳/ })).toHaveCount(1)
  await expect
    .poll(() => page.evaluate(() => new Set((window as unknown as { __maxes: number[] }).__maxes).size))
    .toBeGreaterThan(15)
  await expect(page.getByTestId('live-running')).toBeVisible()
  // For the picture: the newest transcript rows (scrolling moves neither the cursor nor the selection).
  await page
    .getByTestId('transcript-pane')
    .getByRole('listbox')
    .evaluate((el) => {
      el.scrollTop = el.scrollHeight
    })
  await readmeScreenshot(page, 'live-dsh-web')

  // The host stopped mid-turn and started again on its port: the page says so, keeps what it has, then resumes.
  const beforeStop = Number((await page.getByTestId('timeline').getAttribute('data-max')) ?? -1)
  await host.stop()
  await expect(page.getByTestId('live-upstream')).toHaveAttribute('data-upstream', 'gone')
  // Mid-turn: the file the host left ends inside the turn, past what the page had when the stop began.
  expect((await fileView(first)).events.length - 1).toBeGreaterThanOrEqual(beforeStop)
  await expect(status).toHaveAttribute('data-status', 'live')
  await host.start()
  await expect(page.getByTestId('live-upstream')).toHaveAttribute('data-upstream', 'connected')
  // A restarted host does not resume the turn by itself: the next prompt attaches the session again. A NOTOOL turn
  // can be over before a busy page paints it running, so the test waits for its events to arrive, not for the badge.
  const beforePrompt = (await fileView(first)).events.length - 1
  await host.prompt(first, 'NOTOOL after the restart')
  const lastSeq = async (): Promise<number> =>
    Number(/\d+/.exec((await page.getByTestId('live-last-seq').textContent()) ?? '')?.[0] ?? -1)
  await expect.poll(lastSeq, { timeout: 60_000 }).toBeGreaterThan(beforePrompt)
  await expect(page.getByTestId('live-running')).toHaveCount(0, { timeout: 60_000 })

  // At the end: the page's last seq and surface are the harness's fold of the file on disk; no reset, no gap.
  let file = await fileView(first)
  await expect
    .poll(async () => {
      file = await fileView(first)
      return page.getByTestId('live-last-seq').textContent()
    })
    .toBe(`last seq ${file.events.length - 1}`)
  const harness = harnessFoldOf(file)
  expect(harness.error).toBeNull()
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-max', String(file.events.length - 1))
  await expect(page.getByTestId('surface-pane')).toHaveAttribute('data-count', String(harness.nodes.length))
  const shown = await renderedEntries(page, 'surface-pane')
  expect(shown.length).toBeGreaterThan(0)
  for (const [position, seq] of shown) expect(seq).toBe(harness.nodes[position])
  await expect(status).not.toContainText('reset')
  await expect(page.locator('[data-testid=diagnostic][data-code*="seq"]')).toHaveCount(0)
})
