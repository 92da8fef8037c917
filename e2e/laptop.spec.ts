/**
 * A laptop screen (issue 31 §4), 1280x800 with the context chart open, on the bundled demo: the Request view shows at
 * least six whole messages (the chart strip shrinks before the message list does), at the step in force at the end
 * and at the step right after the prune (whose facts hold a message diff); the replace graph's fit never draws its
 * labels under 9 px; the bar under a transcript row has a key and says what it is; once the first rows are drawn,
 * nothing that arrives later (the load's end, the chart, the request's facts) moves the page.
 */

import { expect, test, type Page } from '@playwright/test'
import { LABEL_PX, MIN_LABEL_PX } from '../src/ui/panes/replace-graph/readable-fit.ts'
import { screenshot, waitLoaded } from './support/app.ts'

/** Rows of the request's message list wholly inside the list's box. */
async function wholeRows(page: Page): Promise<number> {
  return page.getByRole('listbox', { name: 'Request messages' }).evaluate((list) => {
    const box = list.getBoundingClientRect()
    return [...list.querySelectorAll('[role=option]')].filter((row) => {
      const r = row.getBoundingClientRect()
      return r.height > 0 && r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5
    }).length
  })
}

test.use({ viewport: { width: 1280, height: 800 } })

for (const hash of ['', '#step=2.1']) {
  test(`the Request view shows at least six whole messages with the chart open (${hash || 'the last step'})`, async ({
    page,
  }) => {
    await page.goto(`/${hash}`)
    await waitLoaded(page)
    await page.getByTestId('request-tab').click()
    await expect(page.getByTestId('context-chart')).toBeVisible()
    await expect(page.getByTestId('request-pane')).toHaveAttribute('data-step', /\d+\.\d+/)
    if (hash !== '') await expect(page.getByTestId('request-message-diff')).toBeVisible()
    await screenshot(page, `laptop${hash === '' ? '' : '-2.1'}`)
    await expect.poll(() => wholeRows(page)).toBeGreaterThanOrEqual(6)
  })
}

/**
 * Every distinct layout of the page's frame seen from its first drawn rows on, sampled each animation frame: the top
 * bar's height, the panes' box, the chart strip's top and, once it has rows, the request list's box.
 */
async function recordLayouts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const layouts: string[] = []
    Object.assign(window, { __layouts: layouts })
    const box = (el: Element | null): string => {
      if (el === null) return '-'
      const r = el.getBoundingClientRect()
      return `${Math.round(r.top)}+${Math.round(r.height)}`
    }
    const sample = (): void => {
      if (document.querySelector('[data-testid=transcript-pane] [role=option]') !== null) {
        const list = document.querySelector('[aria-label="Request messages"]')
        const layout = [
          box(document.querySelector('header')),
          box(document.querySelector('main')),
          box(document.querySelector('[data-testid=context-chart-toggle]')),
          list?.querySelector('[role=option]') == null ? '-' : box(list),
        ].join(' ')
        if (layouts.at(-1) !== layout) layouts.push(layout)
      }
      requestAnimationFrame(sample)
    }
    requestAnimationFrame(sample)
  })
}

for (const hash of ['', '#step=2.1']) {
  test(`once its first rows are drawn, nothing that arrives later moves the page (${hash || 'the demo'})`, async ({ page }) => {
    // The load's progress wrapped in the top bar, the chart's fallback was taller than the chart and its header a line
    // shorter, and the request's facts grew as their answers came: each moved the rows a reader had started on.
    await recordLayouts(page)
    await page.goto(`/${hash}`)
    await waitLoaded(page)
    await expect(page.getByTestId('context-chart-values')).toBeVisible()
    if (hash !== '') {
      await expect(page.getByTestId('request-message-diff')).toBeVisible()
      await expect(page.getByRole('listbox', { name: 'Request messages' }).getByRole('option').first()).toBeVisible()
    }
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))))
    const layouts = await page.evaluate(() => (window as unknown as { __layouts: string[] }).__layouts)
    // The frame (bar, panes, strip) has one layout throughout; the request list one box from its first rows on.
    const frames = new Set(layouts.map((l) => l.split(' ').slice(0, 3).join(' ')))
    const lists = new Set(layouts.map((l) => l.split(' ')[3]).filter((l) => l !== '-'))
    expect(frames.size, layouts.join('\n')).toBe(1)
    expect(lists.size, layouts.join('\n')).toBe(hash === '' ? 0 : 1)
  })
}

/** The `data-index` of the request message whose bottom is the list's bottom (within a pixel), or null. */
async function rowAtBottom(page: Page): Promise<string | null> {
  return page.getByRole('listbox', { name: 'Request messages' }).evaluate((list) => {
    const bottom = list.getBoundingClientRect().bottom
    const row = [...list.querySelectorAll('[role=option]')].find((r) => Math.abs(r.getBoundingClientRect().bottom - bottom) <= 1)
    return row?.getAttribute('data-index') ?? null
  })
}

test('the message a step opens on stays at the bottom of the list when the list then changes height', async ({ page }) => {
  // The facts above the list fill in as their answers arrive, so the list's height changes after the step's changed
  // message was brought into view at its bottom; here the window's height stands for them, deterministically.
  await page.goto('/#step=2.1')
  await waitLoaded(page)
  await page.getByTestId('request-tab').click()
  await expect(page.getByTestId('request-message-diff')).toBeVisible()
  await expect.poll(() => rowAtBottom(page)).not.toBeNull()
  const revealed = await rowAtBottom(page)
  const list = page.getByRole('listbox', { name: 'Request messages' })
  const before = await list.boundingBox()
  await page.setViewportSize({ width: 1280, height: 900 })
  // (A taller window gives the chart strip more room: the list changes height, whichever way.)
  await expect.poll(async () => Math.abs(((await list.boundingBox())?.height ?? 0) - (before?.height ?? 0))).toBeGreaterThan(50)
  await expect.poll(() => rowAtBottom(page)).toBe(revealed)
  // And back: the list grows again, and the row goes on standing at its bottom, not left where it was.
  await page.setViewportSize({ width: 1280, height: 800 })
  await expect.poll(async () => Math.abs(((await list.boundingBox())?.height ?? 0) - (before?.height ?? 0))).toBeLessThan(2)
  await expect.poll(() => rowAtBottom(page)).toBe(revealed)
})

test("the replace graph's fit draws no label under 9 px; the lifespan bars have a key", async ({ page }) => {
  await page.goto('/')
  await waitLoaded(page)
  const node = page.getByTestId('replace-graph').locator('[data-testid=replace-node]').first()
  await expect(node).toBeVisible()
  // The text's rendered size is its font size times the viewport's scale.
  const rendered = async () =>
    page.getByTestId('replace-graph').evaluate((graph) => {
      const viewport = graph.querySelector('.react-flow__viewport') as HTMLElement
      const scale = new DOMMatrixReadOnly(getComputedStyle(viewport).transform).a
      const label = graph.querySelector('[data-testid=replace-node] span') as HTMLElement
      return parseFloat(getComputedStyle(label).fontSize) * scale
    })
  await expect.poll(rendered).toBeGreaterThanOrEqual(MIN_LABEL_PX)
  expect(LABEL_PX).toBe(12)
  // A narrow side column: the fit still keeps labels readable (the graph scrolls instead).
  await page.setViewportSize({ width: 1280, height: 600 })
  await expect.poll(rendered).toBeGreaterThanOrEqual(MIN_LABEL_PX)
  await expect(page.getByTestId('lifespan-legend')).toContainText('visible to the model')
  await expect(page.getByTestId('lifespan').first()).toHaveAttribute('title', /^visible to the model from #\d+ to #\d+/)
})
