/**
 * `dsh-lens` end to end, as a new user meets it: a dsh home written by the real harness (../shared/real-dsh, keyless;
 * two projects, a subagent child), the command run with --no-open, its URL opened in Chromium: the sessions home,
 * the filter, opening a session, the tab title, a copied link landing on the same state in a new page; `dsh-lens open
 * FILE`; a session that appears while the home is open; a missing home.
 */

import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { realDshAvailable, runHeadless } from '../src/test-support/real-dsh.ts'
import { startDshLens, type DshLensProcess } from './support/dsh-lens-process.ts'

test.skip(!realDshAvailable(), 'real-dsh (../shared/real-dsh) is not beside the checkout')

let base: string
let home: string
let work: string
let parserLog: string
let notesLog: string
const running: DshLensProcess[] = []

test.beforeAll(async () => {
  // A cold install of the harness downloads ~180 MB (its setup.sh); a warm one is a no-op.
  test.setTimeout(600_000)
  base = await mkdtemp(join(tmpdir(), 'lens-e2e-home-'))
  home = join(base, 'dsh')
  work = join(base, 'work')
  parserLog = await runHeadless('Fix the parser bug SPAWN', { home, workdir: join(work, 'alpha') })
  notesLog = await runHeadless('Write the release notes NOTOOL', { home, workdir: join(work, 'beta') })
})

test.afterAll(async () => {
  for (const p of running.splice(0)) await p.stop()
  await rm(base, { recursive: true, force: true })
})

async function dshLens(args: string[], dshHome = home): Promise<DshLensProcess> {
  const p = await startDshLens(args, dshHome)
  running.push(p)
  return p
}

test('dsh-lens: home, filter, open by title, tab title, a copied link lands on the same state', async ({ page, context }) => {
  // Two pages and a dozen steps, each waited for: more than the default 30 s on a loaded machine.
  test.setTimeout(120_000)
  const lens = await dshLens([])
  expect(new URL(lens.url).searchParams.get('token')).toMatch(/^[A-Za-z0-9_-]{43}$/)
  await page.goto(lens.url)
  // Signed in, the token is gone from the address.
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/$/)
  const homePage = page.getByTestId('sessions-home')
  await expect(homePage).toHaveAttribute('data-count', '3')
  await expect(homePage).toHaveAttribute('data-state', 'ready')
  const rows = page.getByTestId('session-row')
  await expect(rows).toHaveCount(3)
  const parser = rows.filter({ has: page.locator('text=Mock: Fix the parser bug') })
  await expect(parser).toHaveAttribute('data-title', 'Mock: Fix the parser bug')
  await expect(parser).toHaveAttribute('data-kind', 'root')
  await expect(parser).toHaveAttribute('data-project', join(work, 'alpha'))
  await expect(parser).toHaveAttribute('data-events', /^[1-9]\d*$/)
  await expect(parser).toHaveAttribute('data-running', 'false')
  const parserId = (await parser.getAttribute('data-session-id')) as string
  expect(parserLog).toContain(parserId)
  const child = page.locator('[data-testid=session-row][data-kind=subagent]')
  await expect(child).toHaveAttribute('data-parent-id', parserId)
  await expect(child).toHaveAttribute('data-title', 'SUBTASK: run echo and report')
  // Grouped by project, the newest project first: beta's session was written last.
  await expect(rows.first()).toHaveAttribute('data-title', 'Mock: Write the release notes')

  await page.getByTestId('sessions-filter').fill('release')
  await expect(rows).toHaveCount(1)
  await page.getByTestId('sessions-filter').fill('')
  await expect(rows).toHaveCount(3)
  // `/` focuses the filter; ↓ and Enter open the first match.
  await page.locator('body').click()
  await page.keyboard.press('/')
  await expect(page.getByTestId('sessions-filter')).toBeFocused()
  await page.keyboard.type('parser')
  await expect(rows).toHaveCount(1)
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('Enter')

  await expect(page).toHaveURL(new RegExp(`\\?session=${parserId}(#|$)`))
  await expect(page.getByTestId('live-status')).toHaveAttribute('data-status', 'live')
  // A finished session: the status line says the agent is not running, and since when (not "live", as if it were).
  await expect(page.getByTestId('live-idle')).toContainText(/^not running · idle since .+ \((just now|\d+ min ago)\)$/)
  await expect(page.getByTestId('live-running')).toHaveCount(0)
  await expect(page).toHaveTitle('Mock: Fix the parser bug — dsh-lens')
  await expect(page.getByTestId('source-title')).toHaveText('Mock: Fix the parser bug')
  await expect(page.getByTestId('source-project')).toHaveAttribute('title', join(work, 'alpha'))
  const max = Number(await page.getByTestId('timeline').getAttribute('data-max'))
  expect(max).toBeGreaterThan(10)
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-cursor', String(max))

  // Move the cursor and pick an entry, then copy the link: the session and the state, no token.
  await page.getByTestId('timeline').focus()
  await page.keyboard.press('Home')
  for (let i = 0; i < 8; i++) await page.keyboard.press('ArrowRight')
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-cursor', '8')
  await page.locator('[data-testid=transcript-pane] [data-seq="7"]').first().click()
  await page.getByTestId('copy-link').click()
  const link = (await page.getByTestId('copy-link').getAttribute('data-link')) as string
  expect(link).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/\\?session=${parserId}#seq=8&sel=7$`))
  expect(link).not.toContain('token')

  const second = await context.newPage()
  await second.goto(link)
  await expect(second.getByTestId('timeline')).toHaveAttribute('data-cursor', '8')
  await expect(second.getByTestId('inspector-json')).toContainText('"seq": 7')
  await expect(second).toHaveTitle('Mock: Fix the parser bug — dsh-lens')

  // "Sessions" goes back to the home, and Back to the session.
  await page.getByTestId('sessions-home-button').click()
  await expect(page.getByTestId('sessions-home')).toBeVisible()
  await expect(page).toHaveTitle('dsh-lens')
  await page.goBack()
  await expect(page.getByTestId('source-title')).toHaveText('Mock: Fix the parser bug')
})

test('dsh-lens open FILE: the session opens at once, no home in between', async ({ page }) => {
  const lens = await dshLens(['open', notesLog])
  expect(lens.url).toMatch(/\?session=session-[0-9a-f-]+&token=/)
  await page.goto(lens.url)
  await expect(page.getByTestId('source-title')).toHaveText('Mock: Write the release notes')
  await expect(page.getByTestId('live-status')).toHaveAttribute('data-status', 'live')
  await expect(page.getByTestId('sessions-home')).toHaveCount(0)
  // Only that file is served: its home lists one session.
  await page.getByTestId('sessions-home-button').click()
  await expect(page.getByTestId('sessions-home')).toHaveAttribute('data-count', '1')
})

test('a session the harness writes while the home is open appears in it, with its title', async ({ page }) => {
  // A home of its own (another test may run in parallel on the shared one): dsh has not run there yet.
  const fresh = join(base, 'fresh-dsh')
  const lens = await dshLens([], fresh)
  await page.goto(lens.url)
  const homePage = page.getByTestId('sessions-home')
  await expect(page.getByTestId('sessions-empty')).toBeVisible()
  await runHeadless('Add a CSV export NOTOOL', { home: fresh, workdir: join(work, 'gamma') })
  await expect(homePage).toHaveAttribute('data-count', '1')
  const added = page.locator('[data-testid=session-row][data-title="Mock: Add a CSV export"]')
  await expect(added).toHaveAttribute('data-project', join(work, 'gamma'))
  await expect(homePage).toHaveAttribute('data-state', 'ready')
  await expect(page.getByTestId('sessions-empty')).toHaveCount(0)
})

test('a missing dsh home: the page opens and says where it looked and how to look elsewhere', async ({ page }) => {
  const missing = join(base, 'never-ran-dsh')
  const lens = await dshLens([], missing)
  await page.goto(lens.url)
  await expect(page.getByTestId('sessions-empty')).toContainText(`No sessions were found at ${join(missing, 'sessions')}`)
  await expect(page.getByTestId('sessions-empty')).toContainText('dsh-lens open PATH')
  await expect(page.getByTestId('sessions-home')).toHaveAttribute('data-count', '0')
  // The open-file controls still work.
  await expect(page.getByRole('button', { name: 'Open log…' })).toBeEnabled()
})
