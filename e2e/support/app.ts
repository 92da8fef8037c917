/** Opening the built app on a log: `?log=` served by a route from bytes in the spec, or a dropped File. */

import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect, test, type Locator, type Page } from '@playwright/test'

/** The real harness fixtures, read in place (never copied into this repository). */
export const FIXTURES_DIR = fileURLToPath(new URL('../../../shared/fixtures/dsh/', import.meta.url))

/**
 * A fixture's bytes. In a user's clone ../shared is absent: the test is skipped with
 * a line saying so; under CI=true its absence is a failure.
 */
export function fixtureBytes(name: string): Buffer {
  if (!existsSync(FIXTURES_DIR)) {
    if (process.env['CI'] === 'true') throw new Error(`CI=true but the harness fixtures are missing at ${FIXTURES_DIR}`)
    test.skip(true, `harness fixtures not found at ${FIXTURES_DIR}`)
  }
  return readFileSync(FIXTURES_DIR + name)
}

/** Serve `bytes` at /fixtures/<name> for this page and open the app on it (plus an optional `#hash`). */
export async function openLog(page: Page, name: string, bytes: Buffer | string, hash = ''): Promise<void> {
  const body = typeof bytes === 'string' ? Buffer.from(bytes) : bytes
  // Match on the path: a glob would also match the page URL itself, whose query names the same path.
  const path = `/fixtures/${name}`
  await page.route(
    (url) => url.pathname === path,
    (route) => route.fulfill({ status: 200, body, contentType: 'application/octet-stream' }),
  )
  await page.goto(`/?log=/fixtures/${name}${hash}`)
  await waitLoaded(page)
}

export async function waitLoaded(page: Page): Promise<void> {
  await expect(page.getByTestId('app')).toHaveAttribute('data-load-state', /^(ready|error)$/)
}

/** Drop a file on the page the way a browser does: a `drop` event whose DataTransfer holds a File. */
export async function dropFile(page: Page, name: string, bytes: Buffer | string): Promise<void> {
  const base64 = (typeof bytes === 'string' ? Buffer.from(bytes) : bytes).toString('base64')
  const dataTransfer = await page.evaluateHandle(
    ({ base64, name }) => {
      const binary = atob(base64)
      const data = new Uint8Array(binary.length)
      for (let i = 0; i < binary.length; i++) data[i] = binary.charCodeAt(i)
      const transfer = new DataTransfer()
      transfer.items.add(new File([data], name))
      return transfer
    },
    { base64, name },
  )
  await page.getByTestId('app').dispatchEvent('dragover', { dataTransfer })
  await page.getByTestId('app').dispatchEvent('drop', { dataTransfer })
}

/** Rendered entries of a pane as [position, seq] pairs, in position order. */
export async function renderedEntries(page: Page, testId: string): Promise<[number, number][]> {
  const pairs = await page
    .getByTestId(testId)
    .locator('[role=option][data-seq]')
    .evaluateAll((els) =>
      els.map((el) => [Number(el.getAttribute('data-index')), Number(el.getAttribute('data-seq'))] as [number, number]),
    )
  return pairs.sort((a, b) => a[0] - b[0])
}

/** Transitions are finished before the picture is taken (no fixed wait for a theme switch or a resize to settle). */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `e2e/screenshots/${name}.png`, animations: 'disabled' })
}

/**
 * A picture the README shows. Written to `dir` (public/screenshots/, or docs/images/ for the newer ones, which the
 * built page need not ship) only with README_SCREENSHOTS=1 (refreshing the committed pictures is a deliberate act);
 * otherwise beside the other e2e screenshots, so a test run leaves the checkout clean.
 */
export async function readmeScreenshot(
  page: Page,
  name: string,
  clip?: ScreenshotClip,
  dir = 'public/screenshots',
): Promise<void> {
  const path = process.env['README_SCREENSHOTS'] === '1' ? `${dir}/${name}.png` : `e2e/screenshots/readme-${name}.png`
  await page.screenshot({ path, animations: 'disabled', ...(clip === undefined ? {} : { clip }) })
}

/** A region of the page in CSS pixels: a part of the window often reads better at README size than all of it. */
interface ScreenshotClip {
  readonly x: number
  readonly y: number
  readonly width: number
  readonly height: number
}

/** The region from the top-left-most corner of `from` and `to` to the bottom-right corner of `to`. */
export async function clipTo(from: Locator, to: Locator): Promise<ScreenshotClip> {
  const a = await from.boundingBox()
  const b = await to.boundingBox()
  if (a === null || b === null) throw new Error('clipTo: an element is not laid out')
  const x = Math.floor(Math.min(a.x, b.x))
  const y = Math.floor(Math.min(a.y, b.y))
  return { x, y, width: Math.ceil(b.x + b.width) - x, height: Math.ceil(b.y + b.height) - y }
}

/**
 * Lower the worker's decoded-bytes budget for this page (test-only): the lens worker's script is served with
 * `self.__DSH_LENS_TEST_BUDGET__ = bytes;` in front, which `lens.worker.ts` reads once at start. Call before `goto`.
 */
export async function lowerDecodedBudget(page: Page, bytes: number): Promise<void> {
  await page.route(
    (url) => /\/assets\/lens\.worker-[^/]*\.js$/.test(url.pathname),
    async (route) => {
      const response = await route.fetch()
      const body = `self.__DSH_LENS_TEST_BUDGET__ = ${bytes};\n${await response.text()}`
      await route.fulfill({ response, body })
    },
  )
}
