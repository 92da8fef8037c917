/**
 * Hostile content end to end: a log whose every string field holds markup, script URLs, CSS, template and markdown
 * tricks, bidi overrides and zero-width characters (e2e/support/hostile-log.ts), opened dropped (file input), as a
 * bundle of two files (sessions tree, lineage worker) and live (lens serve). Every pane is clicked through: transcript
 * with log-only events, model surface, request view, inspector raw JSON, diagnostics, replace graph, search, sessions.
 *
 * Asserted after each: no dialog, `window.__pwned` never set, no CSP violation (the app never even tried to load what
 * the log names), no element the app does not render for the same log without markup (a baseline run with benign
 * text gives that set), no event-handler attribute anywhere and no URL attribute naming `javascript:`/`data:`/the
 * payloads' host, no request or WebSocket off the page's origin and stream, and the payload text shown literally.
 */

import { mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type BrowserContext, type Locator, type Page } from '@playwright/test'
import { startLensServer, type LensServer } from '../src/server/lens-server.ts'
import { screenshot, waitLoaded } from './support/app.ts'
import { foldInNode } from './support/expected.ts'
import { recordViolations, violations } from './support/csp-probe.ts'
import { benign, fileName, hostile, literalProbe, sessionLog, shortText, type TextFor } from './support/hostile-log.ts'

const DIST = process.env['LENS_DIST'] ?? process.env['E2E_DIST'] ?? 'dist'

// Each test clicks through every pane and row of a session (and a bundle): well past the 30 s default on a busy machine.
test.describe.configure({ timeout: 180_000 })

/** Everything the page did that could let the log out or in. */
interface Watch {
  readonly dialogs: string[]
  readonly requests: string[]
  readonly sockets: string[]
  readonly errors: string[]
}

async function watch(page: Page, context: BrowserContext): Promise<Watch> {
  const w: Watch = { dialogs: [], requests: [], sockets: [], errors: [] }
  page.on('dialog', (d) => {
    w.dialogs.push(d.message())
    void d.dismiss()
  })
  // The context sees the workers' requests too.
  context.on('request', (r) => w.requests.push(r.url()))
  page.on('websocket', (ws) => w.sockets.push(ws.url()))
  page.on('pageerror', (e) => w.errors.push(e.message))
  await recordViolations(page)
  return w
}

/** What the DOM holds right now: tag names, and everything that looks like markup from the log. */
interface DomReport {
  readonly tags: string[]
  readonly handlerAttributes: string[]
  readonly urlAttributes: string[]
  readonly pwnedElements: number
  readonly scripts: string[]
}

async function domReport(page: Page): Promise<DomReport> {
  return page.evaluate(() => {
    const tags = new Set<string>()
    const handlerAttributes: string[] = []
    const urlAttributes: string[] = []
    const URL_ATTRS = new Set([
      'href',
      'src',
      'srcset',
      'action',
      'formaction',
      'data',
      'poster',
      'xlink:href',
      'style',
      'background',
    ])
    for (const el of document.querySelectorAll('*')) {
      tags.add(el.tagName.toLowerCase())
      for (const a of el.attributes) {
        if (a.name.toLowerCase().startsWith('on')) handlerAttributes.push(`${el.tagName} ${a.name}=${a.value.slice(0, 60)}`)
        if (URL_ATTRS.has(a.name.toLowerCase()) && /javascript:|data:|evil\.invalid|url\(/i.test(a.value))
          urlAttributes.push(`${el.tagName} ${a.name}=${a.value.slice(0, 60)}`)
      }
    }
    return {
      tags: [...tags].sort(),
      handlerAttributes,
      urlAttributes,
      pwnedElements: document.querySelectorAll('#pwned, .pwned').length,
      scripts: [...document.scripts].map((s) => s.getAttribute('src') ?? `inline:${s.textContent?.slice(0, 40)}`),
    }
  })
}

/** Tags that must never appear: what markup in the log would create if it reached the DOM as HTML. */
const FORBIDDEN_TAGS = [
  'img',
  'iframe',
  'frame',
  'object',
  'embed',
  'style',
  'base',
  'form',
  'audio',
  'video',
  'animate',
  'math',
  'a',
  'b',
]

async function expectNothingGotThrough(
  page: Page,
  w: Watch,
  allowedTags: ReadonlySet<string>,
  origins: string[],
  streams: string[],
) {
  expect(w.dialogs).toEqual([])
  expect(await page.evaluate(() => window.__pwned)).toBeUndefined()
  expect(await violations(page)).toEqual([])
  expect(w.errors).toEqual([])
  const dom = await domReport(page)
  expect(dom.handlerAttributes).toEqual([])
  expect(dom.urlAttributes).toEqual([])
  expect(dom.pwnedElements).toBe(0)
  // Only the bundle's own entry module (Vite may add chunk preloads as <link>, never scripts).
  expect(
    dom.scripts.every((s) => /^\/assets\/[\w.-]+\.js$/.test(s)),
    dom.scripts.join(', '),
  ).toBe(true)
  expect(dom.tags.filter((t) => FORBIDDEN_TAGS.includes(t))).toEqual([])
  expect(dom.tags.filter((t) => !allowedTags.has(t))).toEqual([])
  expect(w.requests.filter((u) => !origins.includes(new URL(u).origin))).toEqual([])
  expect(w.sockets.map((u) => u.replace(/\?.*$/, '')).filter((u) => !streams.includes(u))).toEqual([])
}

/**
 * Select every row of a virtualized list, one by one, with the keys (which bring each row into view: a list mounts
 * only a window of its rows, and that window changes as rows are measured, so the rows mounted at one moment are no
 * list of its rows), then go back to the top. `count` is the list's length from the Node core.
 */
async function visitEveryRow(page: Page, paneTestId: string, idPrefix: string, count: number): Promise<void> {
  const pane = page.getByTestId(paneTestId)
  await expect(pane).toHaveAttribute('data-count', String(count))
  const list = pane.getByRole('listbox')
  await list.focus()
  for (let i = 0; i < count; i++) {
    await list.press(i === 0 ? 'Home' : 'ArrowDown')
    await expect(list.locator(`#${idPrefix}-${i}`)).toHaveAttribute('aria-selected', 'true')
  }
  await list.press('Home')
  await expect(list.locator(`#${idPrefix}-0`)).toHaveAttribute('aria-selected', 'true')
}

/**
 * Click through every pane of a loaded session built from `text` (the log `jsonl`), checking each shows its fields
 * literally. Returns the union of tag names seen along the way (the benign run's union is what the app itself renders).
 */
async function clickThrough(
  page: Page,
  text: TextFor,
  source: { jsonl: string; live: boolean },
  seen = new Set<string>(),
): Promise<Set<string>> {
  const log = await foldInNode(source.jsonl)
  const last = log.length - 1
  // A followed log has not ended, so it has no "ends inside a turn" warning (the core gives it on finish()).
  const diagnosticCount = log.diagnostics.filter((d) => !source.live || d.code !== 'open-turn').length
  const snapshot = async () => (await domReport(page)).tags.forEach((t) => seen.add(t))
  const shows = async (scope: Locator, label: string) =>
    expect(scope.getByText(literalProbe(text, label), { exact: false }).first()).toBeVisible()
  await expect(page.getByTestId('app')).toHaveAttribute('data-load-state', 'ready')

  const transcript = page.getByTestId('transcript-pane')
  await transcript.getByLabel('log-only events').check()
  await shows(transcript, 'user')
  await shows(transcript, 'assistant')
  await shows(transcript, 'title')
  await shows(transcript, 'tool-result')
  // Every row: the inspector shows its raw JSON (the log's strings, as text).
  expect(log.allRows.countAt(last)).toBeGreaterThan(10)
  await visitEveryRow(page, 'transcript-pane', 'transcript-all', log.allRows.countAt(last))
  await expect(page.getByTestId('inspector-json')).toBeVisible()
  await snapshot()
  await transcript
    .locator('[role=option]')
    .filter({ hasText: literalProbe(text, 'user') })
    .first()
    .click()
  await shows(page.getByTestId('inspector-json'), 'user')
  await transcript
    .locator('[role=option]')
    .filter({ hasText: literalProbe(text, 'assistant') })
    .first()
    .click()
  await shows(page.getByTestId('inspector-json'), 'reasoning')
  await shows(page.getByTestId('inspector-json'), 'tool-args')
  // The reasoning is collapsed: open it.
  await page.getByTestId('transcript-pane').getByTestId('reasoning-toggle').first().click()
  await shows(transcript, 'reasoning')
  await snapshot()

  const surface = page.getByTestId('surface-pane')
  await shows(surface, 'checkpoint')
  await shows(surface, 'user-2')
  await visitEveryRow(page, 'surface-pane', 'surface', log.surfaceSeqsAfter(last).length)
  await snapshot()

  await page.getByTestId('request-tab').click()
  await expect(page.getByTestId('request-pane')).toBeVisible()
  await snapshot()
  await page.getByTestId('surface-tab').click()

  const graph = page.getByTestId('replace-graph')
  await expect(graph.getByTestId('replace-node')).toHaveCount(1)
  await shows(graph, 'compaction-id')
  await graph.getByTestId('replace-node').click()
  await shows(page.getByTestId('inspector-json'), 'checkpoint')
  await snapshot()

  const diagnostics = page.getByTestId('diagnostics')
  expect(diagnosticCount).toBeGreaterThan(0)
  await visitEveryRow(page, 'diagnostics', 'diagnostic', diagnosticCount)
  await expect(diagnostics.locator('[role=option]').first()).toBeVisible()
  await snapshot()

  await page.keyboard.press('Escape')
  await page.keyboard.press('/')
  await page.getByTestId('search-input').fill(literalProbe(text, 'tool-result'))
  const results = page.getByTestId('search-results')
  await shows(results, 'tool-result')
  await results.locator('[data-seq]').first().click()
  await snapshot()
  await page.getByTestId('search-input').fill(text === hostile ? '<img src=x onerror=' : 'plain words')
  await expect(results.locator('[data-seq]').first()).toBeVisible()
  await snapshot()
  await page.keyboard.press('Escape')

  await page.getByTestId('timeline').focus()
  await page.keyboard.press('Home')
  await page.keyboard.press('End')
  await snapshot()
  return seen
}

/** Drop (file input) one log, then a bundle of parent + child (the sessions tree and the lineage worker). */
async function openDropped(page: Page, text: TextFor, seen: Set<string>, check: () => Promise<void>): Promise<void> {
  await page.goto('/')
  await waitLoaded(page)
  const name = fileName(text, 'dropped')
  await page.getByTestId('file-input').setInputFiles({ name, mimeType: 'text/plain', buffer: Buffer.from(sessionLog(text)) })
  // The file name's RLO is shown as a marker, not as the character: look for the part before it, and the marker.
  const beforeBidi = name.slice(0, name.indexOf('\u202e'))
  await expect(page.getByText(beforeBidi.slice(0, 20), { exact: false }).first()).toBeVisible()
  await expect(page.locator('header [data-hidden-char="202E"], [data-hidden-char="202E"]').first()).toBeAttached()
  await clickThrough(page, text, { jsonl: sessionLog(text), live: false }, seen)
  await check()

  const parentId = text('parent-id')
  await page.getByTestId('sessions-input').setInputFiles([
    { name: fileName(text, 'parent'), mimeType: 'text/plain', buffer: Buffer.from(sessionLog(text, { id: parentId })) },
    {
      name: fileName(text, 'child'),
      mimeType: 'text/plain',
      buffer: Buffer.from(sessionLog(text, { id: text('child-id'), parent: parentId })),
    },
  ])
  const tree = page.getByTestId('session-tree')
  await expect(tree).toHaveAttribute('data-count', '2')
  await expect(page.getByTestId('sessions-panel')).toHaveAttribute('data-state', 'ready')
  await expect(tree.getByText(literalProbe(text, 'child-id'), { exact: false }).first()).toBeVisible()
  // Open each session of the tree in turn (the tree re-renders on each open: find the node again each time).
  for (const label of ['child-id', 'parent-id']) {
    await tree
      .getByTestId('session-open')
      .filter({ hasText: literalProbe(text, label) })
      .click()
    await expect(page.getByTestId('sessions-panel')).toHaveAttribute('data-state', 'ready')
    await waitLoaded(page)
  }
  ;(await domReport(page)).tags.forEach((t) => seen.add(t))
  await check()
}

// The baseline: what the app renders for this log's shape without markup. Filled by the first test of each group.
const allowed = new Set<string>()

test.describe.serial('dropped and bundled', () => {
  test('baseline: the same log with plain text', async ({ page, context }) => {
    const w = await watch(page, context)
    await openDropped(page, benign, allowed, async () => {
      expect(w.dialogs).toEqual([])
      expect(await violations(page)).toEqual([])
    })
    expect(allowed.size).toBeGreaterThan(10)
  })

  test('hostile: nothing runs, no markup reaches the DOM, nothing leaves the page, the text shows literally', async ({
    page,
    context,
    baseURL,
  }) => {
    expect(allowed.size, 'the baseline ran first').toBeGreaterThan(10)
    const w = await watch(page, context)
    const origin = new URL(baseURL ?? '').origin
    await openDropped(page, hostile, new Set(), () => expectNothingGotThrough(page, w, allowed, [origin], []))
    await screenshot(page, 'hostile-content')
  })

  test('the checks can fail: a row rendered as HTML (what a broken app would do) is caught', async ({
    page,
    context,
    baseURL,
  }) => {
    expect(allowed.size, 'the baseline ran first').toBeGreaterThan(10)
    const w = await watch(page, context)
    await page.goto('/')
    await waitLoaded(page)
    await page
      .getByTestId('file-input')
      .setInputFiles({ name: 'h.jsonl', mimeType: 'text/plain', buffer: Buffer.from(sessionLog(hostile)) })
    const row = page
      .getByTestId('transcript-pane')
      .locator('[role=option]')
      .filter({ hasText: literalProbe(hostile, 'user') })
      .first()
    await expect(row).toBeVisible()
    await expectNothingGotThrough(page, w, allowed, [new URL(baseURL ?? '').origin], [])
    // Re-render one row's text as markup: elements, handler attributes and (blocked by the CSP) script all appear.
    await row.evaluate((el) => {
      const p = el.querySelector('p') as HTMLElement
      p.innerHTML = p.textContent ?? ''
    })
    const dom = await domReport(page)
    expect(dom.tags).toEqual(expect.arrayContaining(['img', 'svg', 'iframe', 'style', 'a', 'b', 'object']))
    expect(dom.handlerAttributes.length).toBeGreaterThan(0)
    expect(dom.pwnedElements).toBe(1)
    await expect(expectNothingGotThrough(page, w, allowed, [new URL(baseURL ?? '').origin], [])).rejects.toThrow()
    // The CSP held even so: the markup's handlers and javascript: URLs did not run, and each load was reported.
    expect(await page.evaluate(() => window.__pwned)).toBeUndefined()
    await expect.poll(async () => (await violations(page)).length).toBeGreaterThan(0)
  })
})

test.describe.serial('live (lens serve)', () => {
  let server: LensServer
  const liveAllowed = new Set<string>()

  /** A sessions root with one log built from `text`, in a session directory whose name carries it too. */
  async function serve(text: TextFor): Promise<LensServer> {
    const root = await mkdtemp(join(tmpdir(), 'lens-e2e-hostile-'))
    const dir = join(root, '--tmp-hostile--', fileName(text, 'session-dir').replace(' session.jsonl', ''))
    await mkdir(dir, { recursive: true })
    await writeFile(join(dir, 'session.jsonl'), sessionLog(text, { id: shortText(text, 'session-id') }))
    return startLensServer({ roots: [root], distDir: DIST, pollMs: 250 })
  }

  async function openLive(page: Page, text: TextFor, seen: Set<string>): Promise<void> {
    await page.goto(server.viewerUrl)
    const option = page.getByTestId('session-option').first()
    await expect(option).toBeVisible()
    await expect(option.getByText(literalProbe(text, 'session-id'), { exact: false })).toBeVisible()
    ;(await domReport(page)).tags.forEach((t) => seen.add(t))
    await option.click()
    await expect(page.getByTestId('live-status')).toHaveAttribute('data-status', 'live')
    await clickThrough(page, text, { jsonl: sessionLog(text, { id: shortText(text, 'session-id') }), live: true }, seen)
  }

  test.afterEach(() => server?.close())

  test('baseline: the same log with plain text, live', async ({ page, context }) => {
    server = await serve(benign)
    const w = await watch(page, context)
    await openLive(page, benign, liveAllowed)
    expect(w.dialogs).toEqual([])
    expect(await violations(page)).toEqual([])
  })

  test('hostile, live: nothing runs, no markup in the DOM, only the server origin and its stream', async ({ page, context }) => {
    expect(liveAllowed.size, 'the baseline ran first').toBeGreaterThan(10)
    server = await serve(hostile)
    const w = await watch(page, context)
    await openLive(page, hostile, new Set())
    await expectNothingGotThrough(page, w, liveAllowed, [server.origin], [server.streamUrl])
    expect(w.sockets.length).toBeGreaterThan(0)
  })
})
