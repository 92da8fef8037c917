/**
 * What every browser lane shares (navigation, first rows, graph, time, the A/B page lanes): the probes injected into
 * the page before the app (long tasks, frames, the first transcript row), a booted and settled page in a fresh
 * context, and the frame and long-task figures of a phase. Lanes import this; it imports no lane.
 */

import type { Browser, Page } from '@playwright/test'
import { percentile } from './measure.ts'

/** Target 5: no main-thread task longer than this. */
export const TASK_TARGET_MS = 50

// Long tasks, frame times, and the first frame in which a transcript row and the progress are both in the DOM.
export const PROBES = `
  globalThis.__name = (f) => f
  window.__lane = { longtasks: [], frames: [], raf: false, firstRows: null, t0: 0, sawLoading: false }
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__lane.longtasks.push([e.startTime, e.duration])
  }).observe({ type: 'longtask', buffered: true })
  const watch = () => {
    const lane = window.__lane
    if (lane.firstRows !== null) return
    const row = document.querySelector('[data-testid=transcript-pane] [role=option]')
    const progress = document.querySelector('[data-testid=load-progress]')
    const state = document.querySelector('[data-testid=app]')?.getAttribute('data-load-state')
    // Only rows of the new load count: armed before the input is set, they must come after a 'loading' state was
    // seen (the page may show an earlier log's rows when armed); after ready the progress is gone by design.
    if (lane.armed && state === 'loading') lane.sawLoading = true
    if (row && lane.armed && lane.sawLoading && (progress || state === 'ready')) {
      lane.armed = false
      // The callback runs just before the frame that paints the row: that frame's time is the figure.
      requestAnimationFrame((t) => { lane.firstRows = { at: t, state } })
    }
  }
  new MutationObserver(watch).observe(document, { subtree: true, childList: true, attributes: true })
  window.__lane.armed = location.search.includes('log=')
`

export interface Lane {
  longtasks: [number, number][]
  frames: number[]
  raf: boolean
  firstRows: { at: number; state: string } | null
  armed: boolean
  sawLoading: boolean
}

export async function lane<T>(page: Page, f: (l: Lane) => T): Promise<T> {
  return page.evaluate(`(${f.toString()})(window.__lane)`) as Promise<T>
}

export async function waitReady(page: Page, timeout = 600_000): Promise<void> {
  await page.waitForSelector('[data-testid=app][data-load-state=ready], [data-testid=app][data-load-state=error]', { timeout })
}

/**
 * Let the demo's boot finish (its lazy chunks, chart and graph drawing run for a few hundred ms after `ready`) before
 * a file is dropped: a user drops a file on a page that has settled, and the floor it is compared with is measured on
 * a settled page too. Without it the drop's `change` event waited behind the boot's tail.
 */
export const SETTLE_AFTER_BOOT_MS = 1000

export async function settleAfterBoot(page: Page): Promise<void> {
  await page.waitForTimeout(SETTLE_AFTER_BOOT_MS)
}

/**
 * A fresh 1440x900 context with the probes, its page booted on the demo and settled (so the boot's tail is not
 * measured), handed to `lane`; the context is closed however the lane ends.
 */
export async function withBootedPage<T>(browser: Browser, base: string, lane: (page: Page) => Promise<T>): Promise<T> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
  await context.addInitScript(PROBES)
  try {
    const page = await context.newPage()
    await page.goto(`${base}/`)
    await waitReady(page).catch(() => undefined)
    await settleAfterBoot(page)
    return await lane(page)
  } finally {
    await context.close()
  }
}

export interface Phase {
  frames: number
  p95: number
  max: number
  longestTaskMs: number
  longTasks: number
}

export async function startFrames(page: Page): Promise<number> {
  return page.evaluate(() => {
    const l = (window as unknown as { __lane: Lane }).__lane
    l.frames = []
    l.raf = true
    const loop = (t: number): void => {
      l.frames.push(t)
      if (l.raf) requestAnimationFrame(loop)
    }
    requestAnimationFrame(loop)
    return performance.now()
  })
}

export async function endFrames(page: Page, since: number): Promise<Phase> {
  const { frames, tasks } = await page.evaluate((t0) => {
    const l = (window as unknown as { __lane: Lane }).__lane
    l.raf = false
    return { frames: l.frames, tasks: l.longtasks.filter(([t]) => t >= t0).map(([, d]) => d) }
  }, since)
  const gaps = frames.slice(1).map((t, i) => t - (frames[i] as number))
  return {
    frames: frames.length,
    p95: percentile(gaps, 95),
    max: Math.max(0, ...gaps),
    longestTaskMs: Math.max(0, ...tasks),
    longTasks: tasks.length,
  }
}

/**
 * The cursor dragged across the whole log and back for 3 s, its frames measured. `endAtLast`: the drag lets go at
 * the log's end (the cursor's last event) instead of where the back-and-forth stopped.
 */
export async function dragAcrossTimeline(page: Page, endAtLast = false): Promise<Phase> {
  const box = await page.getByTestId('timeline').boundingBox()
  if (box === null) throw new Error('timeline has no box')
  const start = await startFrames(page)
  const y = box.y + box.height / 2
  await page.mouse.move(box.x + 2, y)
  await page.mouse.down()
  const t0 = Date.now()
  for (let elapsed = 0; elapsed < 3000; elapsed = Date.now() - t0) {
    const phase = elapsed / 3000
    const f = phase < 0.5 ? phase * 2 : 2 - phase * 2
    await page.mouse.move(box.x + 2 + f * (box.width - 4), y)
  }
  if (endAtLast) await page.mouse.move(box.x + box.width - 2, y)
  await page.mouse.up()
  await page.waitForTimeout(500)
  return endFrames(page, start)
}
