/**
 * The sessions home's content search end to end, on a dsh home written by the real harness (../shared/real-dsh,
 * keyless): `dsh-lens` run as a user runs it, its index in a private cache directory (XDG_CACHE_HOME, never under
 * the dsh home); the index builds in the background on first use; a word from one session's prompt is found there
 * (each hit with its session, seq and surface class); the title filter is a different box; a hit opens its session
 * at that event with the word in the viewer's search, marked in its results. `dsh-lens serve` serves the same home
 * and search (its `home:` URL), its index in the same user cache directory.
 */

import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { realDshAvailable, runHeadless } from '../src/test-support/real-dsh.ts'
import { startDshLens, startDshLensServe, type DshLensProcess } from './support/dsh-lens-process.ts'

test.skip(!realDshAvailable(), 'real-dsh (../shared/real-dsh) is not beside the checkout')

let base: string
let home: string
let cache: string
let quokkaLog: string
let notesLog: string
const running: DshLensProcess[] = []

test.beforeAll(async () => {
  // A cold install of the harness downloads ~180 MB (its setup.sh); a warm one is a no-op.
  test.setTimeout(600_000)
  base = await mkdtemp(join(tmpdir(), 'lens-e2e-search-'))
  home = join(base, 'dsh')
  // startDshLens gives the process XDG_CACHE_HOME=<the dsh home's parent>/lens-cache.
  cache = join(base, 'lens-cache')
  const work = join(base, 'work')
  quokkaLog = await runHeadless('Fix the quokka parser bug SPAWN', { home, workdir: join(work, 'alpha') })
  notesLog = await runHeadless('Write the release notes NOTOOL', { home, workdir: join(work, 'beta') })
})

test.afterAll(async () => {
  for (const p of running.splice(0)) await p.stop()
  await rm(base, { recursive: true, force: true })
})

test('home search: a word of one session found at its seq; the hit opens the session there, the word marked', async ({
  page,
}) => {
  test.setTimeout(120_000)
  const lens = await startDshLens([], home)
  running.push(lens)
  await page.goto(lens.url)
  const homePage = page.getByTestId('sessions-home')
  await expect(homePage).toHaveAttribute('data-count', '3')
  // The index builds in the background on first use, in the user's cache directory, never under the dsh home.
  await expect(page.getByTestId('home-search')).toHaveAttribute('data-index-state', 'ready', { timeout: 60_000 })
  await expect(page.getByTestId('index-progress')).toHaveCount(0)
  expect(await readdir(join(cache, 'dsh-lens', 'content-index'))).toContainEqual(expect.stringMatching(/^[0-9a-f]{16}\.sqlite$/))

  const box = page.getByTestId('home-search')
  await expect(box).not.toHaveAttribute('data-testid', 'sessions-filter')
  await box.fill('quokka')
  const results = page.getByTestId('home-search-results')
  await expect(results).toHaveAttribute('data-state', 'done')
  const hits = results.getByTestId('search-hit')
  await expect.poll(async () => Number(await results.getAttribute('data-count'))).toBeGreaterThan(0)
  await expect(hits).toHaveCount(Number(await results.getAttribute('data-count')))
  // Every hit is in the quokka session (its log's directory is its id), with a seq and a surface class.
  const quokkaId = quokkaLog.split('/').at(-2) as string
  for (const hit of await hits.all()) {
    await expect(hit).toHaveAttribute('data-session-id', quokkaId)
    await expect(hit).toHaveAttribute('data-seq', /^\d+$/)
    await expect(hit).toHaveAttribute('data-surface', /^(current|shadowed|log-only)$/)
  }
  // The user's prompt, on the model surface at the end of the session.
  const prompt = hits.filter({ hasText: 'user/message' }).first()
  await expect(prompt).toHaveAttribute('data-surface', 'current')
  await expect(prompt.locator('mark')).toHaveText('quokka')
  const seq = (await prompt.getAttribute('data-seq')) as string
  // The title filter is another box: the sessions list is not narrowed by the content search.
  await expect(page.getByTestId('sessions-filter')).toHaveValue('')
  await expect(page.getByTestId('session-row')).toHaveCount(3)

  // A query that cannot match says so in one sentence.
  await box.fill('*')
  await expect(results).toHaveAttribute('data-state', 'refused')
  await expect(results).toContainText('has no word')
  await box.fill('quokka')
  await expect(results).toHaveAttribute('data-state', 'done')

  await results.locator(`[data-testid=search-hit][data-seq="${seq}"]`).first().click()
  await expect(page).toHaveURL(new RegExp(`[?&]session=${quokkaId}`))
  await expect(page.getByTestId('search-input')).toHaveValue('quokka')
  // The cursor lands on the hit's event (the address says its seq), and its search result is the active one, marked.
  await expect(page).toHaveURL(new RegExp(`#.*seq=${seq}(&|$)`), { timeout: 30_000 })
  const active = page.locator('[data-testid=search-results] [aria-selected=true]')
  await expect(active).toContainText(`#${seq}`)
  await expect(active.locator('mark')).toHaveText(/quokka/i)
})

test('serve: its home searches the same text, a phrase of one session found, the index in the user cache dir', async ({
  page,
}) => {
  test.setTimeout(120_000)
  const lens = await startDshLensServe([], home)
  running.push(lens)
  await page.goto(lens.url)
  await expect(page.getByTestId('sessions-home')).toHaveAttribute('data-count', '3')
  const box = page.getByTestId('home-search')
  await expect(box).toHaveAttribute('data-index-state', 'ready', { timeout: 60_000 })
  await expect(page.getByTestId('index-unavailable')).toHaveCount(0)
  expect(await readdir(join(cache, 'dsh-lens', 'content-index'))).toContainEqual(expect.stringMatching(/^[0-9a-f]{16}\.sqlite$/))

  // A phrase (the default query): both words, in this order, in the release-notes session's prompt only.
  await box.fill('release notes')
  const results = page.getByTestId('home-search-results')
  await expect(results).toHaveAttribute('data-state', 'done')
  const notesId = notesLog.split('/').at(-2) as string
  const hits = results.getByTestId('search-hit')
  await expect.poll(async () => Number(await results.getAttribute('data-count'))).toBeGreaterThan(0)
  for (const hit of await hits.all()) await expect(hit).toHaveAttribute('data-session-id', notesId)
  const prompt = hits.filter({ hasText: 'user/message' }).first()
  await expect(prompt).toHaveAttribute('data-surface', 'current')
  await expect(prompt.locator('mark')).toHaveText('release notes')
  // The words apart are not the phrase.
  await box.fill('notes release')
  await expect(results).toHaveAttribute('data-count', '0')
  await expect(results).toHaveAttribute('data-state', 'done')
})
