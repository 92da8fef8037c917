/**
 * The sessions home with a real `dsh web` attached (../shared/real-dsh, keyless, scripted model): `dsh-lens --dsh URL
 * --no-open` prints its one line → the home lists the host's sessions with titles and running state, a session both
 * on disk and in the host once (`data-source="dsh-web"`, the _live via dsh web_ badge) → a session the host starts
 * appears at once, running, and its subagent under it as it starts → opened from the home it is followed through the
 * host → the host stopped: the rows say _host gone_ and stay; started again: live again. And `dsh-lens SESSION-ID --dsh
 * URL` on a home that does not hold the session opens it through the host (issue 35).
 */

import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { createRealHost, realDshAvailable, type RealHost } from '../src/test-support/real-dsh-host.ts'
import { runHeadless } from '../src/test-support/real-dsh.ts'
import { readmeScreenshot } from './support/app.ts'
import { startDshLens, type DshLensProcess } from './support/dsh-lens-process.ts'

let host: RealHost
let lens: DshLensProcess | undefined
/** A session the harness wrote before the host started: on disk and, once the host lists it, in the host. */
let onDisk: string

test.beforeAll(async () => {
  test.skip(!realDshAvailable(), 'the real harness is not beside this checkout')
  // A cold install of the harness downloads ~180 MB (its setup.sh); a warm one is a no-op.
  test.setTimeout(600_000)
  host = await createRealHost()
  const log = await runHeadless('Fix the parser bug NOTOOL', { home: host.home, workdir: join(host.workdir, 'alpha') })
  onDisk = /(session-[0-9a-f-]+)\/session\.jsonl\.zstd$/.exec(log)?.[1] as string
  await host.start()
})

test.afterAll(async () => {
  await lens?.stop()
  await host?.remove()
})

test('dsh-lens --dsh: host rows in the home, a new session and its subagent at once, opened live, host gone and back', async ({
  page,
}) => {
  test.setTimeout(300_000)
  lens = await startDshLens(['--dsh', host.url], host.home)
  expect(lens.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43}$/)
  await expect.poll(() => lens?.output()).toContain(`dsh-lens: following dsh web at ${host.url} (reads only)`)
  await page.goto(lens.url)

  const homePage = page.getByTestId('sessions-home')
  const rows = page.getByTestId('session-row')
  const row = (id: string) => page.locator(`[data-testid=session-row][data-session-id="${id}"]`)
  // On disk and in the host: one row, from the host.
  await expect(row(onDisk)).toHaveAttribute('data-source', 'dsh-web')
  await expect(homePage).toHaveAttribute('data-count', '1')
  await expect(rows).toHaveCount(1)
  await expect(row(onDisk)).toHaveAttribute('data-title', 'Mock: Fix the parser bug')
  await expect(row(onDisk)).toHaveAttribute('data-running', 'false')
  await expect(row(onDisk)).toHaveAttribute('data-project', join(host.workdir, 'alpha'))
  const badge = row(onDisk).getByTestId('session-source')
  await expect(badge).toHaveText('live via dsh web')
  await expect(badge).toHaveAttribute('data-upstream', 'connected')

  // A session the host starts: listed at once, running, then titled; its subagent appears under it as it starts
  // (SLOW150 keeps the turn streaming well after the subagent is done).
  const fresh = await host.prompt('new', 'Watch the home page SPAWN LOOP3 SLOW150')
  await expect(row(fresh)).toHaveAttribute('data-source', 'dsh-web')
  await expect(row(fresh)).toHaveAttribute('data-running', 'true')
  await expect(row(fresh)).toHaveAttribute('data-title', 'Mock: Watch the home page')
  const child = page.locator(`[data-testid=session-row][data-parent-id="${fresh}"]`)
  await expect(child).toHaveAttribute('data-kind', 'subagent')
  await expect(child).toHaveAttribute('data-source', 'dsh-web')
  await expect(row(fresh)).toHaveAttribute('data-running', 'true')
  await expect(homePage).toHaveAttribute('data-count', '3')
  // Nested under its parent: the row right after it.
  const order = await rows.evaluateAll((els) => els.map((el) => el.getAttribute('data-session-id')))
  expect(order.indexOf(await child.getAttribute('data-session-id'))).toBe(order.indexOf(fresh) + 1)
  await readmeScreenshot(page, 'sessions-home-dsh-web')

  // Opened from the home, it is followed through the host.
  await row(fresh).click()
  await expect(page).toHaveURL(new RegExp(`\\?session=${fresh}(#|$)`))
  const status = page.getByTestId('live-status')
  await expect(status).toHaveAttribute('data-status', 'live')
  await expect(status).toHaveAttribute('data-source', 'dsh-web')
  await expect(page.getByTestId('live-upstream')).toHaveAttribute('data-upstream', 'connected')
  await expect(page.getByTestId('live-last-seq')).toHaveText(/^last seq [1-9]\d*$/)

  // Back home; the host stops: every row stays, marked; it starts again: live again.
  await page.getByTestId('sessions-home-button').click()
  await expect(rows).toHaveCount(3)
  await host.stop()
  for (const id of [onDisk, fresh]) {
    await expect(row(id).getByTestId('session-source')).toHaveAttribute('data-upstream', /^(reconnecting|gone)$/)
  }
  await expect(row(onDisk).getByTestId('session-source')).toHaveText('host gone')
  await expect(rows).toHaveCount(3)
  await host.start()
  await expect(row(onDisk).getByTestId('session-source')).toHaveText('live via dsh web')
  await expect(row(fresh).getByTestId('session-source')).toHaveAttribute('data-upstream', 'connected')
  await expect(homePage).toHaveAttribute('data-count', '3')
})

test('dsh-lens SESSION-ID --dsh: a session the host knows and this home does not opens through the host', async ({ page }) => {
  test.setTimeout(120_000)
  // This dsh-lens reads another, empty home: the session is on the host's disk, not on the one it looks at.
  const empty = await mkdtemp(join(tmpdir(), 'lens-empty-home-'))
  const uuidPrefix = onDisk.slice('session-'.length, 'session-'.length + 13)
  const other = await startDshLens([uuidPrefix, '--dsh', host.url], empty)
  try {
    expect(other.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/\\?session=${onDisk}&token=`))
    await page.goto(other.url)
    const status = page.getByTestId('live-status')
    await expect(status).toHaveAttribute('data-source', 'dsh-web')
    await expect(status).toHaveAttribute('data-status', 'live')
    await expect(page.getByTestId('live-upstream')).toHaveAttribute('data-upstream', 'connected')
    await expect(page.getByRole('banner')).toContainText(onDisk)
    await expect(page.getByTestId('live-last-seq')).toHaveText(/^last seq [1-9]\d*$/)
    await expect(page.getByTestId('timeline')).toHaveAttribute('data-max', /^[1-9]\d*$/)
    // A prefix neither the home nor the host has: one line saying both were asked, exit 2.
    const none = await startDshLens(['ffffffff-0000', '--dsh', host.url], empty).catch((e: unknown) => e)
    expect(String(none)).toContain(
      `dsh-lens: no session under ${join(empty, 'sessions')} has an id starting with "ffffffff-0000", nor does the dsh web host at ${host.url}`,
    )
    expect(String(none)).toContain('exited 2')
  } finally {
    await other.stop()
    await rm(empty, { recursive: true, force: true })
  }
})
