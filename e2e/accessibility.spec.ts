/**
 * axe-core (the standard accessibility engine) on the views a debugging session goes through, in the light and the
 * dark theme: the demo's first screen, the Request view (with a message diff, and a request a provider would reject),
 * the Sessions drawer, search results (said in words) and the inspector (an entry's lifespan, a summary's forgotten
 * facts). Zero violations of axe's default rules (WCAG 2 A/AA and its best practices) on each.
 */

import { readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { dropEvent, firstToolResultSeq } from '../src/test-support/drop-event.ts'
import { fixtureBytes, openLog, waitLoaded } from './support/app.ts'

// axe walks every element and computes every color contrast: on a busy two-CPU machine one analysis of the full
// page takes tens of seconds, more than the default 30 s for the whole test.
test.describe.configure({ timeout: 180_000 })

const FIXTURE = 'acp--session-sandbox-root--session.jsonl'
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

    test('the Request view, with a changed message and with a request a provider would reject', async ({ page }) => {
      await page.emulateMedia({ colorScheme: theme })
      // The step after the prune: its facts hold the message diff.
      await page.goto('/#step=2.1')
      await waitLoaded(page)
      await expect(page.getByTestId('request-message-diff')).toBeVisible()
      expect(await violations(page)).toEqual([])
      // A copy of a real fixture with a tool result removed: the banner, a marked row, a marked step.
      const text = fixtureBytes(FIXTURE).toString('utf8')
      await openLog(page, 'broken.jsonl', dropEvent(text, firstToolResultSeq(text) as number), '#step=1.2')
      await expect(page.getByTestId('request-rejected')).toBeVisible()
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
      await expect(page.getByTestId('search-visible-text')).toBeVisible()
      await page.getByTestId('search-input').press('Enter')
      await expect(page.getByTestId('inspector')).not.toContainText('Select an entry')
      await expect(page.getByTestId('lifespan-text')).toBeVisible()
      expect(await violations(page)).toEqual([])
      // The inspector on a compaction summary: what it does not mention.
      await page.getByTestId('search-input').press('Escape')
      await page.getByTestId('timeline').focus()
      await page.keyboard.press('End')
      await page.getByTestId('replace-graph').locator('[data-testid=replace-node][data-seq="1555"]').click()
      await expect(page.getByTestId('summary-forgot')).toBeVisible()
      expect(await violations(page)).toEqual([])
    })
  })
}
