/**
 * Share… (issue 39): a session written from the page as one HTML file, then opened from `file://` with the network
 * blocked, as the person it was sent to opens it. The review lists every secret (kind, where, masked context,
 * counts), redaction is on by default and "no redaction" is said and stated in the banner, and the file holds no
 * planted secret's bytes. From a dropped file, a `?log=` load, the sessions drawer with a subagent, and a session
 * served by `dsh-lens`; a page whose server has no bundle template says so. Secrets are generated here.
 */

import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { escapedForms, readBundleData, type BundleData } from '../src/core/index.ts'
import { plantedValues } from '../src/test-support/planted-secrets.ts'
import { corpusLog, plantedJsonl, plantedZstd } from '../src/test-support/secret-log.ts'
import { clipTo, dropFile, openLog, readmeScreenshot, waitLoaded } from './support/app.ts'
import { violations } from './support/csp-probe.ts'
import { foldInNode } from './support/expected.ts'
import { startDshLens } from './support/dsh-lens-process.ts'
import { cspConsole, everyView, offline, openBundleFile, secretsInDom } from './support/offline-page.ts'

test.describe.configure({ timeout: 120_000 })

const dir = mkdtempSync(join(tmpdir(), 'lens-share-e2e-'))
const DEMO_DIR = new URL('../public/demo/', import.meta.url).pathname

function bundleData(html: Buffer): BundleData | null {
  return readBundleData(/<script type="application\/json" id="dsh-lens-bundle">(.*?)<\/script>/s.exec(html.toString('utf8'))?.[1])
}

/** Open Share…, wait for its review, write the bundle and save the download; the file's path. */
async function share(page: Page, name: string, choose: (page: Page) => Promise<void> = async () => {}): Promise<string> {
  await page.getByTestId('share').click()
  const dialog = page.getByTestId('share-dialog')
  await expect(dialog).toHaveAttribute('data-state', 'ready')
  await choose(page)
  const download = page.waitForEvent('download')
  await page.getByTestId('share-write').click()
  const path = join(dir, name)
  await (await download).saveAs(path)
  await expect(page.getByTestId('share-written')).toBeVisible()
  return path
}

test('Share… on a dropped file: the review, then a bundle that opens offline with no secret in it', async ({ browser }) => {
  const { events, plants } = corpusLog('tool-result', 31)
  const zstd = plantedZstd(plantedJsonl(events, true))
  const values = plants.flatMap((p) => plantedValues(p.secret).map((v) => v.value))
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
  await page.goto('/')
  await waitLoaded(page)
  await dropFile(page, 'planted.jsonl.zstd', Buffer.from(zstd))
  await expect(page.getByTestId('app')).toHaveAttribute('data-load-state', 'ready')
  await expect(page.getByTestId('source-title').or(page.getByText('planted.jsonl.zstd'))).toBeVisible()

  await page.getByTestId('share').click()
  const dialog = page.getByTestId('share-dialog')
  await expect(dialog).toHaveAttribute('data-state', 'ready')
  const review = page.getByTestId('share-review')
  const distinct = new Set(values).size
  await expect(review).toHaveAttribute('data-secrets', String(distinct))
  await expect(review.getByTestId('share-secret')).toHaveCount(distinct)
  await expect(page.getByTestId('share-redact')).toBeChecked()
  await expect(review).toHaveAttribute('data-paths', '0')
  // Keeping a value takes it off what will be removed; un-keeping puts it back.
  const firstRow = review.getByTestId('share-secret').first()
  await firstRow.getByTestId('share-allow').check()
  await expect(review).toHaveAttribute('data-secrets', String(distinct - 1))
  await expect(review).toHaveAttribute('data-kept', '1')
  await expect(firstRow).toHaveAttribute('data-kept', 'true')
  await firstRow.getByTestId('share-allow').uncheck()
  await expect(review).toHaveAttribute('data-secrets', String(distinct))
  // Home paths: the header's /home/alice, when asked.
  await page.getByTestId('share-redact-paths').check()
  await expect(review).toHaveAttribute('data-paths', /^[1-9]/)
  expect(await secretsInDom(page, values, dialog)).toStrictEqual([])
  await readmeScreenshot(page, 'share-review', await clipTo(dialog, dialog), 'docs/images')

  const download = page.waitForEvent('download')
  await page.getByTestId('share-write').click()
  const file = join(dir, 'planted.html')
  await (await download).saveAs(file)
  const written = page.getByTestId('share-written')
  await expect(written).toHaveAttribute('data-name', 'planted.html')
  await expect(written).toHaveAttribute('data-mode', 'redacted')
  const redactions = (await written.getAttribute('data-redactions')) as string
  expect(Number(redactions)).toBeGreaterThanOrEqual(values.length)
  await page.close()

  // The file: no planted secret's bytes in any escaped form, and no home directory's user name in a path.
  const html = readFileSync(file)
  expect(values.filter((v) => escapedForms(v).some((form) => html.includes(form)))).toStrictEqual([])
  const data = bundleData(html)
  expect(data?.redaction).toMatchObject({ mode: 'redacted', paths: true, count: Number(redactions) })
  expect(data?.logs.map((l) => [l.path, l.encoding])).toStrictEqual([['planted.jsonl.zstd', 'zstd']])
  const inside = await foldInNode(gunzipSync(Buffer.from(data?.logs[0]?.gzipBase64 ?? '', 'base64')))
  expect(inside.length).toBe(events.length)
  expect(inside.header?.cwd).toBe('/home/user/proj')

  // Opened from file:// with every request refused: every view, no request, no CSP violation, no secret in the DOM.
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
  const reader = await context.newPage()
  const requested = await offline(context, file)
  const consoleLines = cspConsole(reader)
  await openBundleFile(reader, file)
  const banner = reader.getByTestId('bundle-banner')
  await expect(banner).toHaveAttribute('data-redactions', redactions)
  await expect(banner).toContainText('Offline bundle')
  await expect(banner).toContainText('of session planted')
  await expect(banner).toContainText(`redacted: ${redactions} replacements`)
  await expect(banner).toContainText('home paths and user names replaced')
  await expect(reader.getByTestId('share')).toBeDisabled()
  await readmeScreenshot(reader, 'bundle-banner', await clipTo(reader.locator('header').first(), banner), 'docs/images')
  await everyView(reader)
  expect(await secretsInDom(reader, values)).toStrictEqual([])
  // The home directory's user name, in what the page shows (the viewer's own code names /home/alice as an example).
  expect(await secretsInDom(reader, ['/home/alice'], undefined, { scripts: false })).toStrictEqual([])
  expect(requested).toStrictEqual([])
  expect(await violations(reader)).toStrictEqual([])
  expect(consoleLines).toStrictEqual([])
  await context.close()
})

test("no redaction is said in the dialog, and stated in the bundle's banner", async ({ page, context }) => {
  const { events, plants } = corpusLog('user', 32)
  await page.goto('/')
  await waitLoaded(page)
  await dropFile(page, 'raw.jsonl', plantedJsonl(events, false))
  await expect(page.getByTestId('app')).toHaveAttribute('data-load-state', 'ready')
  const file = await share(page, 'raw.html', async (p) => {
    await p.getByTestId('share-no-redact').check()
    await expect(p.getByTestId('share-review')).toHaveAttribute('data-secrets', '0')
    await expect(p.getByTestId('share-review')).toContainText('Not redacted: the file will hold')
    await expect(p.getByTestId('share-write')).toHaveText('Write bundle, not redacted')
  })
  await expect(page.getByTestId('share-written')).toHaveAttribute('data-mode', 'not-redacted')
  const data = bundleData(readFileSync(file))
  expect(data?.redaction).toStrictEqual({ mode: 'not-redacted', paths: false, count: 0, secrets: 0, allowed: 0 })
  expect(plants.length).toBeGreaterThan(0)
  const reader = await context.newPage()
  await offline(context, file)
  await openBundleFile(reader, file)
  const banner = reader.getByTestId('bundle-banner')
  await expect(banner).toHaveAttribute('data-mode', 'not-redacted')
  await expect(banner).toHaveAttribute('data-redactions', '0')
  await expect(banner).toContainText('NOT redacted: this file holds every secret of the log as it was logged')
})

test('Share… on a ?log= load reads the URL again; a server without a template says so', async ({ page }) => {
  const { events, plants } = corpusLog('tool-arguments', 33)
  const values = plants.flatMap((p) => plantedValues(p.secret).map((v) => v.value))
  await openLog(page, 'linked.jsonl', plantedJsonl(events, false))
  const file = await share(page, 'linked.html')
  const html = readFileSync(file)
  expect(values.filter((v) => escapedForms(v).some((form) => html.includes(form)))).toStrictEqual([])
  expect(bundleData(html)?.logs.map((l) => l.path)).toStrictEqual(['linked.jsonl'])
  await page.getByRole('button', { name: 'Cancel' }).click()
  await expect(page.getByTestId('share-dialog')).toHaveCount(0)
  // A static host that serves the viewer but not its bundle template.
  await page.route(
    (url) => url.pathname === '/dsh-lens-bundle.html',
    (route) => route.fulfill({ status: 404, body: 'no' }),
  )
  await page.getByTestId('share').click()
  await expect(page.getByTestId('share-dialog')).toHaveAttribute('data-state', 'ready')
  await expect(page.getByTestId('share-unavailable')).toContainText('no bundle template')
  await expect(page.getByTestId('share-write')).toBeDisabled()
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('share-dialog')).toHaveCount(0)
})

test('Share… from the sessions drawer takes the subagent along', async ({ page, context }) => {
  const child = readdirSync(`${DEMO_DIR}subagents`)[0] as string
  await page.goto('/')
  await waitLoaded(page)
  await page
    .getByTestId('sessions-input')
    .setInputFiles([`${DEMO_DIR}demo-session.jsonl`, `${DEMO_DIR}subagents/${child}/session.jsonl`])
  await expect(page.getByTestId('session-tree')).toHaveAttribute('data-count', '2')
  await expect(page.getByTestId('app')).toHaveAttribute('data-load-state', 'ready')
  await page.getByRole('button', { name: 'Close' }).click()
  const file = await share(page, 'demo-session.html', async (p) => {
    await expect(p.getByTestId('share-subagents')).toBeChecked()
    await expect(p.getByTestId('share-session')).toContainText('with 1 subagent log')
  })
  const data = bundleData(readFileSync(file))
  expect(data?.logs.map((l) => l.path)).toStrictEqual(['demo-session.jsonl', `subagents/${child}/session.jsonl`])
  const reader = await context.newPage()
  const requested = await offline(context, file)
  await openBundleFile(reader, file)
  await expect(reader.getByTestId('session-tree')).toHaveAttribute('data-count', '2')
  await expect(reader.getByTestId('bundle-banner')).toContainText('with 1 subagent log')
  expect(requested).toStrictEqual([])
})

test('Share… on a session served by dsh-lens: its events as followed', async ({ page }) => {
  const { events, plants } = corpusLog('reasoning', 34)
  const values = plants.flatMap((p) => plantedValues(p.secret).map((v) => v.value))
  const home = mkdtempSync(join(tmpdir(), 'lens-share-home-'))
  const log = join(dir, 'served.jsonl')
  writeFileSync(log, plantedJsonl(events, true))
  const lens = await startDshLens(['open', log], home)
  try {
    await page.goto(lens.url)
    await expect(page.getByTestId('live-status')).toHaveAttribute('data-status', 'live')
    await expect(page.getByTestId('app')).toHaveAttribute('data-load-state', 'ready')
    const file = await share(page, 'served.html', async (p) => {
      await expect(p.getByTestId('share-note')).toContainText('a followed session: the bundle holds its')
    })
    const html = readFileSync(file)
    expect(values.filter((v) => escapedForms(v).some((form) => html.includes(form)))).toStrictEqual([])
    expect(bundleData(html)?.logs[0]?.encoding).toBe('jsonl')
  } finally {
    await lens.stop()
  }
})
