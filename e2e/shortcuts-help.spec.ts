/**
 * `?` opens the keyboard help, generated from the one table the key handlers read: one row per table row, grouped
 * by where it works; Esc closes it and gives focus back; `?` typed in the search box is text, not the help.
 */

import { expect, test } from '@playwright/test'
import { SHORTCUTS } from '../src/ui/shared/shortcuts.ts'
import { screenshot, waitLoaded } from './support/app.ts'

test('? lists every shortcut of the table; Esc closes it and focus goes back', async ({ page }) => {
  await page.goto('/')
  await waitLoaded(page)
  const timeline = page.getByTestId('timeline')
  await timeline.focus()
  await page.keyboard.press('Shift+?')
  const help = page.getByTestId('shortcuts-help')
  await expect(help).toBeVisible()
  await expect(help).toBeFocused()
  const rows = help.getByTestId('shortcut')
  await expect(rows).toHaveCount(SHORTCUTS.length)
  expect(
    await rows.evaluateAll((els) => els.map((el) => `${el.getAttribute('data-scope')}:${el.getAttribute('data-action')}`)),
  ).toEqual(expect.arrayContaining(SHORTCUTS.map((row) => `${row.scope}:${row.action}`)))
  await expect(help.getByTestId('shortcut').filter({ hasText: 'Previous replace operation' })).toContainText('[')
  await screenshot(page, 'shortcuts-help')
  await page.keyboard.press('Escape')
  await expect(help).toHaveCount(0)
  await expect(timeline).toBeFocused()
  // The table drives the timeline too: ] still moves to the next replacement after the help closed.
  await page.keyboard.press('Home')
  await expect(timeline).toHaveAttribute('data-cursor', '0')
  await page.keyboard.press(']')
  await expect(timeline).not.toHaveAttribute('data-cursor', '0')
})

test('? typed in the search box is text; the Keys button opens the help too', async ({ page }) => {
  await page.goto('/')
  await waitLoaded(page)
  await page.keyboard.press('/')
  const box = page.getByTestId('search-input')
  await expect(box).toBeFocused()
  await page.keyboard.type('why?')
  await expect(box).toHaveValue('why?')
  await expect(page.getByTestId('shortcuts-help')).toHaveCount(0)
  await page.getByTestId('shortcuts-button').click()
  await expect(page.getByTestId('shortcuts-help')).toBeVisible()
  await page.getByTestId('shortcuts-help').getByRole('button', { name: 'Close' }).click()
  await expect(page.getByTestId('shortcuts-help')).toHaveCount(0)
})
