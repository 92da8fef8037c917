/**
 * The offline bundle (`dsh-lens bundle`): one HTML file opened from `file://` in Chromium with every network request
 * refused. Every view renders (transcript, surface, replace graph, Request view, search, context chart, Time lanes),
 * no request leaves the page (workers included), the page reports no Content-Security-Policy violation under the
 * bundle's policy, and no planted secret's bytes are in the HTML. The bundle of the demo (with its subagent) is under
 * 1.5 MB. Needs `npm run build` (the template, dist-bundle/).
 */

import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { escapedForms, readBundleData, BUNDLE_ELEMENT_ID } from '../src/core/index.ts'
import { plantedValues } from '../src/test-support/planted-secrets.ts'
import { corpusLog, plantedJsonl, plantedZstd } from '../src/test-support/secret-log.ts'
import { violations } from './support/csp-probe.ts'
import { cspConsole, everyView, offline, openBundleFile as openBundle, secretsInDom } from './support/offline-page.ts'

test.describe.configure({ timeout: 120_000 })

const ROOT = new URL('../', import.meta.url).pathname
const TSX = join(ROOT, 'node_modules/.bin/tsx')
const dir = mkdtempSync(join(tmpdir(), 'lens-bundle-e2e-'))

function bundle(args: string[]): void {
  const r = spawnSync(TSX, ['src/cli/main.ts', 'bundle', ...args], { cwd: ROOT, encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`dsh-lens bundle failed: ${r.stderr}`)
}

test('the demo bundle opens offline from file://: every view, no request, no CSP violation, under 1.5 MB', async ({
  page,
  context,
}) => {
  const out = join(dir, 'demo.html')
  bundle(['public/demo/demo-session.jsonl', '-o', out, '--with-subagents'])
  expect(statSync(out).size).toBeLessThan(1.5 * 1024 * 1024)
  const requested = await offline(context, out)
  const consoleLines = cspConsole(page)
  await openBundle(page, out)
  // Its subagent came along: the sessions drawer lists both (then it is closed to reach the panes).
  await expect(page.getByText('2 session(s)')).toBeVisible()
  await page.getByRole('button', { name: 'Close' }).click()
  await everyView(page)
  const data = readBundleData(await page.locator(`#${BUNDLE_ELEMENT_ID}`).textContent())
  expect(data?.logs.map((l) => l.path.split('/')[0])).toStrictEqual(['demo-session.jsonl', 'subagents'])
  expect(data?.redaction).toMatchObject({ mode: 'redacted', count: 0 })
  expect(requested).toStrictEqual([])
  expect(await violations(page)).toStrictEqual([])
  expect(consoleLines).toStrictEqual([])
  await page.screenshot({ path: join(dir, 'demo-bundle.png') })
})

test('a bundle of a log full of secrets holds none of their bytes, and opens offline', async ({ page, context }) => {
  const { events, plants } = corpusLog('assistant-text', 17)
  const jsonl = plantedJsonl(events, true)
  const log = join(dir, 'planted.jsonl.zstd')
  writeFileSync(log, plantedZstd(jsonl))
  const out = join(dir, 'planted.html')
  bundle([log, '-o', out])
  const html = readFileSync(out)
  const secrets = plants.flatMap((p) => plantedValues(p.secret).map((v) => v.value))
  const left = secrets.filter((s) => escapedForms(s).some((form) => html.includes(form)))
  expect(left.length).toBe(0)
  const requested = await offline(context, out)
  await openBundle(page, out)
  await expect(page.getByTestId('transcript-pane').locator('[role=option][data-seq]').first()).toBeVisible()
  // The redacted log's own text shows the placeholders (searched in the worker, inside the bundle).
  await page.keyboard.press('/')
  await page.getByTestId('search-input').fill('[REDACTED:')
  await expect(page.getByTestId('search-results').locator('[data-seq]').first()).toBeVisible()
  const data = readBundleData(await page.locator(`#${BUNDLE_ELEMENT_ID}`).textContent())
  expect(data?.redaction.mode).toBe('redacted')
  expect(data?.redaction.count).toBeGreaterThanOrEqual(secrets.length)
  // The banner says it is a bundle, of which session, redacted how; no secret is anywhere in the page.
  const banner = page.getByTestId('bundle-banner')
  await expect(banner).toHaveAttribute('data-redactions', String(data?.redaction.count))
  await expect(banner).toContainText('of session planted')
  await expect(banner).toContainText(`redacted: ${data?.redaction.count} replacements`)
  expect(await secretsInDom(page, secrets)).toStrictEqual([])
  expect(requested).toStrictEqual([])
  expect(await violations(page)).toStrictEqual([])
})

test('--no-redact is said in the bundle, and the log is the original', async () => {
  const { events, plants } = corpusLog('user', 18)
  const log = join(dir, 'raw.jsonl')
  writeFileSync(log, plantedJsonl(events, false))
  const out = join(dir, 'raw.html')
  bundle([log, '-o', out, '--no-redact'])
  const data = readBundleData(
    /<script type="application\/json" id="dsh-lens-bundle">(.*?)<\/script>/s.exec(readFileSync(out, 'utf8'))?.[1],
  )
  expect(data?.redaction).toStrictEqual({ mode: 'not-redacted', paths: false, count: 0, secrets: 0, allowed: 0 })
  expect(plants.length).toBeGreaterThan(0)
})
