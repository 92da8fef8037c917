/**
 * The context chart end to end: on the bundled demo it represents one point per event (the count the core gives in
 * Node for the same bytes) and draws at most one bucket per pixel; a click moves the timeline cursor to the event
 * under the pointer on the chart's own x scale; hover shows the values the core computes for the hovered bucket,
 * the compaction and prune markers with the tokens they removed; the strip collapses and remembers it; in a window
 * narrower than 1600 pixels the values line still shows whole (the key and the strip's switches move to a line of their own). A live log
 * followed through the companion server grows the chart, and a compaction landing is marked with its logged count.
 */

import { compaction, line } from './support/live-lines.ts'
import { readFileSync } from 'node:fs'
import { appendFile, mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { ContextSeries } from '../src/core/series/context-series.ts'
import { startLensServer } from '../src/server/lens-server.ts'
import { headerText } from '../src/test-support/live-test-kit.ts'
import { markerText, shortCount } from '../src/ui/panes/context-chart/chart-values.ts'
import type { ContextMarkerRow } from '../src/protocol/context-series.ts'
import { waitLoaded, readmeScreenshot } from './support/app.ts'
import { foldInNode } from './support/expected.ts'

const DEMO = readFileSync(new URL('../public/demo/demo-session.jsonl', import.meta.url))

// Each test folds the demo in Node too and hovers many points; on a busy 2-core machine that outlasts 30 s.
test.setTimeout(90_000)

async function demoSeries() {
  const log = await foldInNode(DEMO)
  const series = new ContextSeries()
  series.update(log)
  return { log, series }
}

/** The plot area's box and the chart's x scale, as the page reports them. */
async function plotScale(page: Page) {
  const chart = page.getByTestId('context-chart')
  const box = await page.getByTestId('context-chart-plot').boundingBox()
  if (box === null) throw new Error('no plot')
  const xMin = Number(await chart.getAttribute('data-x-min'))
  const xMax = Number(await chart.getAttribute('data-x-max'))
  return { box, xMin, xMax, perPixel: (xMax - xMin) / box.width }
}

/**
 * Waits until the chart shows buckets cut for its plot's current width (the chart asks the worker again whenever
 * that width changes, and the answer lands tasks later: reading `data-drawn` once raced it): the fewest events per
 * bucket that keep to one bucket per pixel, never more buckets than pixels, together covering all `events`.
 * Returns the bucket size.
 */
async function settledBuckets(page: Page, events: number): Promise<number> {
  const chart = page.getByTestId('context-chart')
  const plot = page.getByTestId('context-chart-plot')
  let bucket = 0
  const state = async () => {
    const box = await plot.boundingBox()
    const drawn = Number(await chart.getAttribute('data-drawn'))
    bucket = Number(await chart.getAttribute('data-bucket-size'))
    const pixels = box === null ? 0 : Math.round(box.width)
    // uPlot is resized a few tasks after its box (a ResizeObserver, then an effect): until then the plot, the
    // buckets and the drawing agree with each other at the old width, a state the other checks would accept.
    const sizedForTheBox = await plot.evaluate((over) => {
      const root = over.closest('.uplot') as HTMLElement
      const box = root.parentElement as HTMLElement
      const style = getComputedStyle(box)
      const content = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
      return Math.floor(content) === Math.round(root.getBoundingClientRect().width)
    })
    return {
      sizedForTheBox,
      cutForThePlot: pixels > 0 && bucket === Math.max(1, Math.ceil(events / pixels)),
      fitsThePlot: drawn > 0 && drawn <= pixels,
      coversEveryEvent: bucket > 0 && drawn === Math.ceil(events / bucket),
    }
  }
  await expect.poll(state).toStrictEqual({ sizedForTheBox: true, cutForThePlot: true, fitsThePlot: true, coversEveryEvent: true })
  return bucket
}

/**
 * Hovers the plot at (x, y) and returns the bucket the values line then names. The pointer leaves the plot first
 * and the line is read once it says it hovers again: the hover reaches the page a task after the move, and reading
 * `data-first` right away could return the previous position's bucket.
 */
async function hoverAt(page: Page, x: number, y: number): Promise<{ first: number; last: number }> {
  const values = page.getByTestId('context-chart-values')
  const box = await page.getByTestId('context-chart-plot').boundingBox()
  if (box === null) throw new Error('no plot')
  await page.mouse.move(box.x + box.width / 2, box.y - 60)
  await expect(values).toHaveAttribute('data-hover', 'false')
  await page.mouse.move(x, y)
  await expect(values).toHaveAttribute('data-hover', 'true')
  return { first: Number(await values.getAttribute('data-first')), last: Number(await values.getAttribute('data-last')) }
}

/**
 * From the page's start, keeps the largest number of buckets the chart showed beyond its plot's pixels (0: never
 * more buckets than pixels), read at every change of the chart's DOM. The first answer used to be cut for the
 * strip's whole width and stayed drawn on the narrower plot until a second answer replaced it.
 */
async function recordOverdraw(page: Page): Promise<() => Promise<number>> {
  await page.addInitScript(() => {
    const w = window as unknown as { __overdraw: number }
    w.__overdraw = 0
    new MutationObserver(() => {
      const drawn = Number(document.querySelector('[data-testid=context-chart]')?.getAttribute('data-drawn') ?? 0)
      const width = document.querySelector('[data-testid=context-chart-plot]')?.getBoundingClientRect().width ?? 0
      if (width > 0) w.__overdraw = Math.max(w.__overdraw, drawn - Math.round(width))
    }).observe(document, { subtree: true, childList: true, attributes: true })
  })
  return () => page.evaluate(() => (window as unknown as { __overdraw: number }).__overdraw)
}

/** The same words the chart writes for a marker, from the core's marker in Node. */
function expectedMarkerText(m: ContextSeries['markers'][number]): string {
  const row: ContextMarkerRow = {
    index: m.index,
    seq: m.seq,
    kind: m.kind,
    removed: m.loggedTokens ?? m.estimatedTokens,
    removedSource: m.loggedTokens === null ? 'estimated' : 'logged',
    loggedTokens: m.loggedTokens,
    estimatedTokens: m.estimatedTokens,
    shadowedCount: m.shadowedCount,
  }
  return markerText(row)
}

test('the cursor line stands at the cursor from the first drawing (a deep link, no interaction)', async ({ page }) => {
  // The chart is made empty and its series drawn a task later: the line must still be placed, with the x scale.
  await page.goto('/#seq=1000')
  await waitLoaded(page)
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-cursor', '1000')
  const line = page.getByTestId('context-chart-cursor')
  await expect(line).toBeVisible()
  const offset = async (): Promise<number> => {
    const { box, xMin, perPixel } = await plotScale(page)
    const at = await line.boundingBox()
    return at === null || perPixel === 0 ? Infinity : Math.abs(xMin + (at.x + at.width / 2 - box.x) * perPixel - 1000) / perPixel
  }
  // Within two pixels of where the chart's own scale puts event 1000.
  await expect.poll(offset).toBeLessThanOrEqual(2)
})

test('context chart on the demo: points, click moves the cursor, hover shows the values', async ({ page }) => {
  const { log, series } = await demoSeries()
  for (let i = 0; i < log.length; i++) expect(log.seqOf(i)).toBe(i)
  const overdraw = await recordOverdraw(page)
  await page.goto('/')
  await waitLoaded(page)
  const chart = page.getByTestId('context-chart')
  await expect(chart).toHaveAttribute('data-points', String(log.length))
  await expect(chart).toHaveAttribute('data-markers', String(series.markers.length))
  const bucket = await settledBuckets(page, log.length)
  // Never, not even for its first answer, did the chart draw more buckets than its plot has pixels.
  expect(await overdraw()).toBeLessThanOrEqual(0)
  const { box, xMin, xMax, perPixel } = await plotScale(page)
  expect([xMin, xMax]).toEqual([0, log.length - 1])

  // Click: the cursor lands on the event under the pointer, within a pixel's worth of the chart's scale.
  const timeline = page.getByTestId('timeline')
  for (const fraction of [0.3, 0.71]) {
    const offset = Math.round(box.width * fraction)
    await page.mouse.click(box.x + offset, box.y + box.height / 2)
    const expected = xMin + offset * perPixel
    await expect
      .poll(async () => Math.abs(Number(await timeline.getAttribute('data-cursor')) - expected))
      .toBeLessThanOrEqual(perPixel + 0.5)
  }

  // Hover: the values line names the hovered bucket and shows what the core computes for it.
  const values = page.getByTestId('context-chart-values')
  const { first, last } = await hoverAt(page, box.x + box.width * 0.5, box.y + box.height / 2)
  expect(Math.abs(first - (xMin + box.width * 0.5 * perPixel))).toBeLessThanOrEqual(bucket + perPixel)
  const messages = Array.from({ length: last - first + 1 }, (_, k) => series.messagesAfter(first + k))
  const tokens = Array.from({ length: last - first + 1 }, (_, k) => series.tokensAfter(first + k))
  const span = (xs: number[], f: (v: number) => string) =>
    Math.min(...xs) === Math.max(...xs) ? f(xs[0] as number) : `${f(Math.min(...xs))}–${f(Math.max(...xs))}`
  await expect(values).toContainText(`${span(messages, (v) => v.toLocaleString('en-US'))} msgs`)
  await expect(values).toContainText(`~${span(tokens, shortCount)} tok`)

  // Hover over each kind of marker: its removed tokens as logged (or estimated), said which.
  for (const kind of ['summary', 'prune'] as const) {
    const marker = series.markers.find((m) => m.kind === kind)
    if (marker === undefined) throw new Error(`the demo has no ${kind}`)
    const x = box.x + (marker.index - xMin) / perPixel
    let found = false
    for (const nudge of [0, -1, 1, -2, 2]) {
      const { first: from, last: to } = await hoverAt(page, x + nudge, box.y + box.height / 2)
      if (marker.index < from || marker.index > to) continue
      const inBucket = series.markers.filter((m) => m.index >= from && m.index <= to).map(expectedMarkerText)
      for (const text of inBucket) await expect(values).toContainText(text)
      found = true
      break
    }
    expect(found).toBe(true)
  }
  await page.mouse.move(box.x + box.width / 2, box.y - 60)
  await expect(values).toHaveAttribute('data-hover', 'false')
})

test('the strip collapses, stays collapsed after a reload, and opens again', async ({ page }) => {
  await page.goto('/')
  await waitLoaded(page)
  const toggle = page.getByTestId('context-chart-toggle')
  await expect(page.getByTestId('context-chart')).toBeVisible()
  await expect(toggle).toHaveAttribute('aria-expanded', 'true')
  await expect(page.getByTestId('context-chart')).toHaveAttribute('data-points', /^[1-9]/)
  await page.getByTestId('context-chart').screenshot({ path: 'e2e/screenshots/context-chart-light.png' })
  await toggle.click()
  await expect(page.getByTestId('context-chart')).toHaveCount(0)
  await expect(toggle).toHaveAttribute('aria-expanded', 'false')
  await page.reload()
  await waitLoaded(page)
  await expect(page.getByTestId('context-chart-toggle')).toHaveAttribute('aria-expanded', 'false')
  await expect(page.getByTestId('context-chart')).toHaveCount(0)
  await page.getByTestId('context-chart-toggle').click()
  await expect(page.getByTestId('context-chart')).toHaveAttribute('data-points', /^[1-9]/)
})

test('on a laptop-sized window the values line is whole (the key, the count and the switches take a line of their own); widening re-buckets', async ({
  page,
}) => {
  const values = page.getByTestId('context-chart-values')
  /** How much of the values line is cut off (0 or a rounding pixel: all of it shows), and the header's height. */
  const fit = () =>
    values.evaluate((el) => ({
      hidden: el.scrollWidth - el.clientWidth,
      header: (el.closest('header') as HTMLElement).getBoundingClientRect().height,
    }))
  const { log } = await demoSeries()
  // 900 tall: the chart keeps its full height and axis titles (a shorter window shrinks it, laptop.spec.ts), so the
  // plot's width, and with it the buckets, depends on the window's width alone.
  await page.setViewportSize({ width: 1024, height: 900 })
  await page.goto('/')
  await waitLoaded(page)
  await expect(page.getByTestId('context-chart')).toHaveAttribute('data-points', String(log.length))
  // The values line's text depends on the buckets (the cursor's bucket is named): measure once they are final.
  const narrowBucket = await settledBuckets(page, log.length)
  const narrow = await fit()
  expect(narrow.hidden).toBeLessThanOrEqual(1)
  // Hovering changes the values' text, never the layout: the header keeps its height with the pointer on the plot.
  const { box } = await plotScale(page)
  await page.mouse.move(box.x + box.width * 0.55, box.y + box.height / 2)
  await expect(values).toHaveAttribute('data-hover', 'true')
  expect((await fit()).header).toBe(narrow.header)
  await page.mouse.move(0, 0)
  // Where everything fits on one line (a 1680-pixel window), the header is one line: shorter than the two above.
  await page.setViewportSize({ width: 1680, height: 900 })
  await expect.poll(async () => (await fit()).header).toBeLessThan(narrow.header)
  // Wider, the chart cuts finer buckets for the wider plot (never more than its pixels).
  const wideBucket = await settledBuckets(page, log.length)
  expect(wideBucket).toBeLessThan(narrowBucket)
  expect((await fit()).hidden).toBeLessThanOrEqual(1)
})

test("the header keeps its height when the chart's first answer arrives (the page below does not move)", async ({ page }) => {
  // Below 1600 pixels the values take a line of their own; before the first answer an empty line holds their place.
  // Every height the header had from navigation on, sampled each frame: one height, whenever the answer lands.
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.addInitScript(() => {
    const heights: number[] = []
    Object.assign(window, { __chartHeaderHeights: heights })
    const sample = (): void => {
      const header = document.querySelector('[data-testid=context-chart] header')
      const h = header === null ? null : Math.round(header.getBoundingClientRect().height)
      if (h !== null && h > 0 && heights.at(-1) !== h) heights.push(h)
      requestAnimationFrame(sample)
    }
    requestAnimationFrame(sample)
  })
  await page.goto('/')
  await waitLoaded(page)
  await expect(page.getByTestId('context-chart-values')).toBeVisible()
  // Two frames after the values are drawn, so a change they caused has been sampled.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))))
  const heights = await page.evaluate(() => (window as unknown as { __chartHeaderHeights: number[] }).__chartHeaderHeights)
  expect(heights).toHaveLength(1)
})

test('screenshot: the whole app with the chart, dark theme', async ({ page }) => {
  const { log } = await demoSeries()
  await page.goto('/')
  await waitLoaded(page)
  await page.getByRole('button', { name: 'Dark theme' }).click()
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  const chart = page.getByTestId('context-chart')
  await expect(chart).toHaveAttribute('data-points', String(log.length))
  await settledBuckets(page, log.length)
  const { box } = await plotScale(page)
  await page.mouse.click(box.x + box.width * 0.62, box.y + box.height / 2)
  // The picture shows the cursor where the click put it and the values of the hovered bucket.
  await expect
    .poll(async () => Number(await page.getByTestId('timeline').getAttribute('data-cursor')))
    .toBeLessThan(log.length * 0.7)
  await hoverAt(page, box.x + box.width * 0.4, box.y + box.height / 2)
  await readmeScreenshot(page, 'context-chart')
  await chart.screenshot({ path: 'e2e/screenshots/context-chart-strip.png' })
})

const user = (seq: number): string =>
  line({
    type: 'user/message',
    seq,
    time: seq,
    data: {
      id: `u${seq}`,
      role: 'user',
      content: [{ type: 'text', text: `hello ${seq} `.repeat(40) }],
      source: { kind: 'user' },
    },
    surfaceOp: 'append',
  })
test('a live log: the chart grows with it and marks a compaction landing with its logged count', async ({ page }) => {
  const root = await mkdtemp(join(tmpdir(), 'lens-e2e-chart-'))
  const dir = join(root, '--home-u-proj--', 'session-chart')
  await mkdir(dir, { recursive: true })
  const path = join(dir, 'session.jsonl')
  await writeFile(path, headerText('session-chart') + '\n' + user(0) + user(1))
  const server = await startLensServer({
    roots: [root],
    distDir: process.env['LENS_DIST'] ?? process.env['E2E_DIST'] ?? 'dist',
    pollMs: 150,
  })
  try {
    await page.goto(server.viewerUrl)
    await page.getByTestId('session-option').first().click()
    const chart = page.getByTestId('context-chart')
    await expect(chart).toHaveAttribute('data-points', '2')
    for (let seq = 2; seq < 6; seq++) await appendFile(path, user(seq))
    await expect(chart).toHaveAttribute('data-points', '6')
    await expect(chart).toHaveAttribute('data-markers', '0')
    await appendFile(path, compaction())
    await expect(chart).toHaveAttribute('data-points', '10')
    await expect(chart).toHaveAttribute('data-markers', '1')
    // At the cursor (following: the last event) the values line shows the surface after the compaction.
    const values = page.getByTestId('context-chart-values')
    const { box, xMin, perPixel } = await plotScale(page)
    await page.mouse.move(box.x + (8 - xMin) / perPixel, box.y + box.height / 2)
    await expect(values).toContainText('compaction −40 tok (logged)')
  } finally {
    await server.close()
  }
})
