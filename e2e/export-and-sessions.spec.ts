/**
 * Export and sessions end to end: "Save prefix" downloads the log through the cursor, the harness's fold of it (oracle
 * foldSurface) equals ours at the cursor, and re-opened in the viewer it shows that surface; "Copy link" carries the
 * cursor and selection; a web-export zip built here with fflate (a real parent fixture and a fork child whose seed is
 * the parent's real prefix) shows the sessions tree with the heuristic start link and the verified seed; several
 * files (a continuable parent and its child) link through the `started subagent` tool result; a folder drop.
 */

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { zipSync } from 'fflate'
import { expect, test, type Page } from '@playwright/test'
import { logPrefix } from '../src/core/index.ts'
import { harnessVerdict } from '../src/test-support/harness-oracle.ts'
import { fixtureBytes, openLog, readmeScreenshot, screenshot } from './support/app.ts'
import { foldInNode } from './support/expected.ts'
import { eventsOfJsonl as eventsOf } from '../src/test-support/expanded-events.ts'

const enc = new TextEncoder()

/** A child log the way the harness writes one (format reference 5): seed, end-seed, descriptor, one turn. */
async function childLog(o: {
  id: string
  parentId: string
  seedFrom?: Buffer
  seedLength?: number
  label: string
  mode: string
}): Promise<string> {
  const header = {
    type: 'session',
    version: 0,
    id: o.id,
    createdAt: 1783352137161,
    cwd: '{{cwd}}',
    parentSession: o.parentId,
    ...(o.seedLength !== undefined ? { seedLength: o.seedLength } : {}),
    origin: 'subagent',
    delegationDepth: 1,
  }
  let seed = ''
  let seq = 0
  if (o.seedFrom !== undefined && o.seedLength !== undefined) {
    seed = logPrefix(await foldInNode(o.seedFrom), o.seedLength - 1)
      .parts.slice(1)
      .join('')
    seq = o.seedLength
  }
  const own = [
    { type: 'session/end-seed', seq: seq++, time: 1, data: {} },
    { type: 'subagent/descriptor', seq: seq++, time: 2, data: { version: 2, mode: o.mode, label: o.label } },
    { type: 'turn/start', seq: seq++, time: 3, data: { turn: 1 } },
    { type: 'turn/end', seq: seq++, time: 4, data: { turn: 1, reason: { kind: 'completed' } } },
  ]
  return `${JSON.stringify(header)}\n${seed}${own.map((e) => JSON.stringify(e)).join('\n')}\n`
}

async function cursorOf(page: Page): Promise<number> {
  return Number(await page.getByTestId('timeline').getAttribute('data-cursor'))
}

test('save prefix: the download folds (harness) like the cursor and re-opens in the viewer; copy link', async ({
  page,
  context,
}) => {
  const name = 'acp--packed-chunks--session.jsonl'
  const bytes = fixtureBytes(name)
  const log = await foldInNode(bytes)
  const cut = 11 // inside the first reasoning row (seq0 10): the row is re-encoded shorter
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  await openLog(page, name, bytes, `#seq=${cut}&sel=4`)
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-cursor', String(cut))

  await page.getByTestId('copy-link').click()
  await expect(page.getByTestId('copy-link')).toHaveAttribute(
    'data-link',
    new RegExp(`\\?log=/fixtures/${name}#seq=${cut}&sel=4$`),
  )
  // The link is shown before the clipboard write resolves: wait for the clipboard itself.
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toMatch(new RegExp(`#seq=${cut}&sel=4$`))

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('save-prefix').click()])
  expect(download.suggestedFilename()).toBe(`acp--packed-chunks--session.to-seq-${cut}.session.jsonl`)
  const text = await (await download.createReadStream()).toArray().then((parts) => Buffer.concat(parts).toString('utf8'))
  expect(text).toBe(logPrefix(log, cut).parts.join(''))
  const events = eventsOf(text)
  expect(events.length).toBe(cut + 1)
  const oracle = harnessVerdict(events)
  expect(oracle.error).toBeNull()
  expect(oracle.nodes).toEqual(log.surfaceSeqsAfter(cut))
  await expect(page.getByTestId('save-prefix')).toHaveAttribute('data-saved-events', String(cut + 1))

  // Re-open the saved prefix: the viewer shows exactly the surface the original had at the cursor.
  await page.getByTestId('file-input').setInputFiles({ name: 'prefix.jsonl', mimeType: 'text/plain', buffer: Buffer.from(text) })
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-max', String(cut))
  await expect(page.getByTestId('surface-pane')).toHaveAttribute('data-count', String(log.surfaceSeqsAfter(cut).length))
  await screenshot(page, 'export-prefix-reopened')
})

test('a web-export zip: the sessions tree, the fork seed, the start link to the parent and back to the child', async ({
  page,
}) => {
  const parent = fixtureBytes('acp--subagent-fork-in-process--session.jsonl')
  const childId = 'ada8966c-9fa3-441b-8721-37ff1e795e6a'
  const child = await childLog({
    id: childId,
    parentId: '96cf59c9-b347-48b9-b234-a5200913ad05',
    seedFrom: parent,
    seedLength: 42,
    label: 'Recall project codeword',
    mode: 'one-shot',
  })
  const zip = zipSync({
    'session.jsonl': new Uint8Array(parent),
    [`subagents/${childId}/session.jsonl`]: enc.encode(child),
    'media/x.png': new Uint8Array([1]),
  })
  await page.goto('/')
  await page
    .getByTestId('sessions-input')
    .setInputFiles({ name: 'dsh-session-96cf59c9.zip', mimeType: 'application/zip', buffer: Buffer.from(zip) })
  const tree = page.getByTestId('session-tree')
  await expect(tree).toHaveAttribute('data-count', '2')
  const childNode = tree.locator(`[data-testid=session-node][data-session-id="${childId}"]`)
  await expect(childNode).toHaveAttribute('data-kind', 'subagent')
  await expect(childNode).toHaveAttribute('data-depth', '1')
  await expect(childNode).toHaveAttribute('data-parent-id', '96cf59c9-b347-48b9-b234-a5200913ad05')
  await expect(childNode.getByTestId('session-seed')).toHaveAttribute('data-diverges-at', '')
  await expect(childNode.getByTestId('session-seed')).toHaveAttribute('data-seed-length', '42')
  // The root opened by itself; its child is listed with the event that started it.
  const parentLog = await foldInNode(parent)
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-max', String(parentLog.length - 1))
  await expect(page.getByTestId('child-link')).toHaveAttribute('data-seq', '157')
  await readmeScreenshot(page, 'sessions')

  await page.getByTestId('child-link').click()
  const childLen = (await foldInNode(child)).length
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-max', String(childLen - 1))
  await expect(childNode).toHaveAttribute('data-current', 'true')

  const start = childNode.getByTestId('session-start-link')
  await expect(start).toHaveAttribute('data-parent-seq', '157')
  await expect(start).toHaveAttribute('data-heuristic', 'true')
  await start.click()
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-max', String(parentLog.length - 1))
  await expect.poll(() => cursorOf(page)).toBe(157)
  await screenshot(page, 'sessions-zip-start-link')
})

test('several files: a continuable child linked by its `started subagent` result, reported back', async ({ page }) => {
  const parent = fixtureBytes('acp--subagent-continuable--session.jsonl')
  const child = await childLog({
    id: '33333333-3333-4333-8333-333333333333',
    parentId: '11111111-1111-4111-8111-111111111111',
    label: 'Reply with CHILD_OK',
    mode: 'continuable',
  })
  await page.goto('/')
  await page.getByTestId('sessions-input').setInputFiles([
    { name: 'child.jsonl', mimeType: 'text/plain', buffer: Buffer.from(child) },
    { name: 'parent.jsonl', mimeType: 'text/plain', buffer: parent },
    { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') },
  ])
  const tree = page.getByTestId('session-tree')
  await expect(tree).toHaveAttribute('data-count', '2')
  const nodes = tree.getByTestId('session-node')
  await expect(nodes.nth(0)).toHaveAttribute('data-key', 'parent.jsonl')
  await expect(nodes.nth(1)).toHaveAttribute('data-key', 'child.jsonl')
  const start = nodes.nth(1).getByTestId('session-start-link')
  await expect(start).toHaveAttribute('data-parent-seq', '16')
  await expect(start).toHaveAttribute('data-heuristic', 'false')
  await expect(nodes.nth(1).getByTestId('session-report-link')).toHaveText('#61')
  await expect(page.getByTestId('sessions-skipped')).toHaveAttribute('data-count', '1')
})

test('a folder (directory input) is walked for logs, *.tmp left out', async ({ page }) => {
  await page.goto('/')
  // A real folder drop cannot be synthesized in a test; the directory input gives the same relative paths.
  const parent = fixtureBytes('acp--workflow-run--session.jsonl')
  const child = await childLog({
    id: '583a4db2-3350-436c-b4a5-5615fd159052',
    parentId: '3fd7d599-56b1-493a-930d-f1fc5e1556e8',
    label: 'wf',
    mode: 'one-shot',
  })
  const dir = join(mkdtempSync(join(tmpdir(), 'lens-e2e-')), 'sessions')
  mkdirSync(join(dir, 'child'), { recursive: true })
  writeFileSync(join(dir, 'session.jsonl'), parent)
  writeFileSync(join(dir, 'child', 'session.jsonl'), child)
  writeFileSync(join(dir, 'child', 'session.jsonl.0123456789ab.tmp'), 'half-written')
  await page.getByTestId('directory-input').setInputFiles(dir)
  await expect(page.getByTestId('session-tree')).toHaveAttribute('data-count', '2')
  const childNode = page.locator('[data-testid=session-node][data-session-id="583a4db2-3350-436c-b4a5-5615fd159052"]')
  await expect(childNode.getByTestId('session-start-link')).toHaveAttribute('data-parent-seq', '167')
  await expect(childNode.getByTestId('session-start-link')).toHaveAttribute('data-heuristic', 'false')
})
