/**
 * The page by keyboard alone, on the bundled demo: End in the transcript selects the last entry at the first press
 * (its row was not fetched yet when the key went down), and ↑ then moves on from it; the Sessions drawer takes focus
 * when it opens and gives it back to its button when Esc or Close shuts it; a replace node reached with Tab shows a
 * focus ring, and the graph's edges are no Tab stops; the middle pane's tabs follow ←/→.
 */

import { readFileSync, readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect, test, type Page } from '@playwright/test'
import { waitLoaded } from './support/app.ts'
import { foldInNode } from './support/expected.ts'

const DEMO_DIR = fileURLToPath(new URL('../public/demo/', import.meta.url))

async function focusedTestId(page: Page): Promise<string | null> {
  return page.evaluate(() => document.activeElement?.closest('[data-testid]')?.getAttribute('data-testid') ?? null)
}

test('End in the transcript selects the last entry at once, and ↑ moves on from it', async ({ page }) => {
  await page.goto('/')
  await waitLoaded(page)
  const list = page.getByRole('listbox', { name: 'Transcript entries' })
  // The row count the core gives for the demo's bytes, waited for in the pane (not read from it once).
  const log = await foldInNode(readFileSync(`${DEMO_DIR}demo-session.jsonl`))
  const count = log.messageRows.countAt(log.length - 1)
  expect(count).toBeGreaterThan(20)
  await expect(page.getByTestId('transcript-pane')).toHaveAttribute('data-count', String(count))
  await list.focus()
  await list.press('ArrowDown')
  await expect(list).toHaveAttribute('aria-activedescendant', 'transcript-messages-0')
  await list.press('End')
  // Before: the list scrolled to the end but nothing was selected (the row was on its way from the worker), and the
  // next ↑ jumped back to the top.
  await expect(list).toHaveAttribute('aria-activedescendant', `transcript-messages-${count - 1}`)
  const last = page.locator(`#transcript-messages-${count - 1}`)
  await expect(last).toHaveAttribute('aria-selected', 'true')
  const lastSeq = await last.getAttribute('data-seq')
  await expect(page.getByTestId('inspector')).toContainText(`#${lastSeq}`)
  await expect(page).toHaveURL(new RegExp(`sel=${lastSeq}(&|$)`))
  await list.press('ArrowUp')
  await expect(list).toHaveAttribute('aria-activedescendant', `transcript-messages-${count - 2}`)
})

test('the Sessions drawer takes focus when it opens and gives it back to its button when closed', async ({ page }) => {
  await page.goto('/')
  await waitLoaded(page)
  const child = readdirSync(`${DEMO_DIR}subagents`)[0]
  await page
    .getByTestId('sessions-input')
    .setInputFiles([`${DEMO_DIR}demo-session.jsonl`, `${DEMO_DIR}subagents/${child}/session.jsonl`])
  const panel = page.getByTestId('sessions-panel')
  await expect(page.getByTestId('session-tree')).toHaveAttribute('data-count', '2')
  await expect.poll(() => focusedTestId(page)).toBe('sessions-panel')
  await page.keyboard.press('Escape')
  await expect(panel).toHaveCount(0)
  await expect(page.getByTestId('sessions-toggle')).toBeFocused()
  // Open again from the button by keyboard; Tab goes on inside the drawer, not through the panes it covers.
  await page.keyboard.press('Enter')
  await expect.poll(() => focusedTestId(page)).toBe('sessions-panel')
  await page.keyboard.press('Tab')
  await expect
    .poll(() => page.evaluate(() => document.activeElement?.closest('[data-testid=sessions-panel]') !== null))
    .toBe(true)
  await panel.getByRole('button', { name: 'Close' }).click()
  await expect(panel).toHaveCount(0)
  await expect(page.getByTestId('sessions-toggle')).toBeFocused()
})

test('a replace node reached with Tab shows a focus ring; edges are no Tab stops', async ({ page }) => {
  await page.goto('/')
  await waitLoaded(page)
  const graph = page.getByTestId('replace-graph')
  await expect(graph.locator('.react-flow__node').first()).toBeVisible()
  await expect(graph.locator('.react-flow__edge[tabindex="0"]')).toHaveCount(0)
  // Tab from the transcript's toggle through the page until a node has focus: no edge on the way.
  await page.getByTestId('transcript-pane').getByRole('checkbox').focus()
  const passed: string[] = []
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press('Tab')
    const cls = await page.evaluate(() => (document.activeElement as HTMLElement | null)?.className ?? '')
    passed.push(String(cls))
    if (String(cls).includes('react-flow__node')) break
  }
  expect(passed.some((c) => c.includes('react-flow__edge'))).toBe(false)
  const focused = graph.locator('.react-flow__node:focus')
  await expect(focused).toHaveCount(1)
  await expect
    .poll(() =>
      focused.evaluate((el) => {
        const style = getComputedStyle(el)
        return { style: style.outlineStyle, width: style.outlineWidth }
      }),
    )
    .toStrictEqual({ style: 'solid', width: '2px' })
})

test('the middle pane’s tabs: ←/→ show and focus the other tab', async ({ page }) => {
  await page.goto('/')
  await waitLoaded(page)
  const surface = page.getByTestId('surface-tab')
  const request = page.getByTestId('request-tab')
  await surface.focus()
  await page.keyboard.press('ArrowRight')
  await expect(request).toHaveAttribute('aria-selected', 'true')
  await expect(request).toBeFocused()
  await expect(page.getByTestId('request-pane')).toBeVisible()
  await page.keyboard.press('ArrowLeft')
  await expect(surface).toHaveAttribute('aria-selected', 'true')
  await expect(surface).toBeFocused()
  // One Tab stop for the row: the tab not shown is reached with the arrows, not with Tab.
  await expect(request).toHaveAttribute('tabindex', '-1')
})
