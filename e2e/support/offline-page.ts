/**
 * An offline bundle opened as its reader opens it: from `file://`, with every request but the file itself refused and
 * recorded (workers included), the page's CSP violations and console refusals collected; every view of the viewer
 * rendered; and a probe for secret values anywhere in the page's DOM (text and attributes).
 */

import { pathToFileURL } from 'node:url'
import { expect, type BrowserContext, type Locator, type Page } from '@playwright/test'
import { escapedForms } from '../../src/core/index.ts'
import { recordViolations } from './csp-probe.ts'

/**
 * Refuse every request but the bundle's own file; record every request the page and its workers make other than that
 * file and the blobs the page made of its own text (what is left must be nothing).
 */
export async function offline(context: BrowserContext, file: string): Promise<string[]> {
  const self = pathToFileURL(file).href
  const requested: string[] = []
  context.on('request', (request) => {
    const url = request.url()
    if (url !== self && !url.startsWith('blob:')) requested.push(url)
  })
  await context.route('**/*', (route) => (route.request().url() === self ? route.continue() : route.abort()))
  return requested
}

/** Console lines that report a refused load or a policy violation. */
export function cspConsole(page: Page): string[] {
  const lines: string[] = []
  page.on('console', (m) => void (/Content Security Policy|Refused to/i.test(m.text()) && lines.push(m.text())))
  return lines
}

export async function openBundleFile(page: Page, path: string): Promise<void> {
  await recordViolations(page)
  await page.goto(pathToFileURL(path).href)
  await expect(page.getByTestId('app')).toHaveAttribute('data-load-state', 'ready')
}

/** Every view of the viewer, each waited for in the state it shows once rendered. */
export async function everyView(page: Page): Promise<void> {
  await page.getByTestId('transcript-pane').locator('[role=option][data-seq]').first().click()
  await expect(page.getByTestId('inspector-json')).toBeVisible()
  await page.getByTestId('surface-pane').locator('[role=option][data-seq]').first().click()
  await expect(page.getByTestId('replace-graph').locator('.react-flow')).toBeVisible()
  await expect(page.getByTestId('context-chart')).toHaveAttribute('data-points', /^[1-9]/)
  await page.keyboard.press('/')
  await page.getByTestId('search-input').fill('the')
  await expect(page.getByTestId('search-results').locator('[data-seq]').first()).toBeVisible()
  await page.keyboard.press('Escape')
  await page.getByTestId('chart-mode-time').click()
  await expect(page.getByTestId('time-lanes')).toBeVisible()
  await page.getByTestId('request-tab').click()
  await expect(page.getByTestId('request-pane').locator('[role=option][data-seq]').first()).toBeVisible()
}

/**
 * Which of `values` (by position) stand anywhere in the DOM under `root` (the whole page by default): in its text,
 * in any attribute, in form values, in any JSON-escaped form. A secret must never be there. `scripts: false` leaves
 * out the text of `<script>` and `<style>` elements (the viewer's own code, whose strings are no log content).
 */
export async function secretsInDom(
  page: Page,
  values: readonly string[],
  root?: Locator,
  { scripts = true }: { scripts?: boolean } = {},
): Promise<number[]> {
  const everything = await (root ?? page.locator('html')).evaluate((node, withScripts) => {
    const parts: string[] = []
    const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT)
    for (let text = walker.nextNode(); text !== null; text = walker.nextNode()) {
      const parent = text.parentElement?.tagName
      if (withScripts || (parent !== 'SCRIPT' && parent !== 'STYLE')) parts.push(text.textContent ?? '')
    }
    for (const el of [node, ...node.querySelectorAll('*')]) {
      for (const attr of el.getAttributeNames()) parts.push(el.getAttribute(attr) ?? '')
      if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) parts.push(el.value)
    }
    return parts.join('\n')
  }, scripts)
  return values.flatMap((value, k) => (escapedForms(value).some((form) => everything.includes(form)) ? [k] : []))
}
