/**
 * axe-core (the standard accessibility engine) on the views a debugging session goes through, in the light and the
 * dark theme: the demo's first screen, the Request view, the Sessions drawer, search results and the inspector with
 * an entry selected. Zero violations of axe's default rules (WCAG 2 A/AA and its best practices) on each.
 */

import { readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { waitLoaded } from './support/app.ts'

// axe walks every element and computes every color contrast: on a busy two-CPU machine one analysis of the full
// page takes tens of seconds, more than the default 30 s for the whole test.
test.describe.configure({ timeout: 180_000 })

const DEMO_DIR = fileURLToPath(new URL('../public/demo/', import.meta.url))

/** Every violation as `rule (impact): target` lines, so a failure names what to fix. */
async function violations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze()
  return result.violations.flatMap((v) =>
    v.nodes.map((n) => `${v.id} (${v.impact ?? '?'}): ${n.target.join(' ')} ${n.failureSummary?.split('\n')[1] ?? ''}`),
  )
}

async function open(page: Page, theme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: theme })
  await page.goto('/')
  await waitLoaded(page)
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme)
}

for (const theme of ['light', 'dark'] as const) {
  test.describe(`${theme} theme`, () => {
    test('the first screen', async ({ page }) => {
      await open(page, theme)
      await expect(page.getByTestId('replace-node').first()).toBeVisible()
      expect(await violations(page)).toEqual([])
    })

    test('the Request view', async ({ page }) => {
      await open(page, theme)
      await page.getByTestId('request-tab').click()
      await expect(page.getByTestId('request-pane')).toHaveAttribute('data-step', /\d+\.\d+/)
      expect(await violations(page)).toEqual([])
    })

    test('the Sessions drawer', async ({ page }) => {
      await open(page, theme)
      const child = readdirSync(`${DEMO_DIR}subagents`)[0]
      await page
        .getByTestId('sessions-input')
        .setInputFiles([`${DEMO_DIR}demo-session.jsonl`, `${DEMO_DIR}subagents/${child}/session.jsonl`])
      await expect(page.getByTestId('session-tree')).toHaveAttribute('data-count', '2')
      expect(await violations(page)).toEqual([])
    })

    test('search results and the inspector', async ({ page }) => {
      await open(page, theme)
      await page.getByTestId('search-input').fill('parseRow')
      await expect(page.getByTestId('search-results')).toHaveAttribute('data-done', 'true')
      await page.getByTestId('search-input').press('Enter')
      await expect(page.getByTestId('inspector')).not.toContainText('Select an entry')
      expect(await violations(page)).toEqual([])
    })
  })
}
