/**
 * Bidirectional and invisible characters ("Trojan Source": `abc\u202Eevil\u202C`) are shown, not obeyed: the rows
 * and the inspector render each as a ⟨U+XXXX⟩ marker (so no such character is in the DOM text to reorder what
 * follows), the inspector warns with the count over the whole value, and copying (the button, or a selection
 * with Ctrl+C) gives the original characters back. Expected values come from the Node core on the same bytes.
 */

import { expect, test } from '@playwright/test'
import { countHidden, hasHidden, hiddenMarker } from '../src/core/text/hidden-chars.ts'
import { openLog, readmeScreenshot } from './support/app.ts'
import { foldInNode } from './support/expected.ts'
import { RTL_TRICK, hiddenCharsLog } from './support/huge-logs.ts'

test('RTL overrides and zero-width characters show as markers; copies keep the originals', async ({ page, context }) => {
  const jsonl = hiddenCharsLog()
  const log = await foldInNode(jsonl)
  const userJson = JSON.stringify(log.event(1), null, 2)
  const hidden = countHidden(userJson)
  expect(hidden.bidi).toBe(4)
  expect(userJson).toContain(RTL_TRICK)

  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  await page.emulateMedia({ colorScheme: 'dark' })
  await openLog(page, 'hidden-chars.jsonl', jsonl)

  // Rows: the trick is shown as markers; the DOM text holds no hidden character at all.
  const transcript = page.getByTestId('transcript-pane')
  const userRow = transcript.locator('[role=option][data-seq="1"]')
  await expect(userRow.locator('[data-hidden-char="202E"]')).toHaveText(hiddenMarker(0x202e))
  await expect(userRow.locator('[data-hidden-char="202C"]')).toHaveText('⟨U+202C⟩')
  await expect(userRow.locator('[data-hidden-char="200B"]')).toHaveAttribute('title', 'ZERO WIDTH SPACE (U+200B)')
  await expect(userRow).toContainText('abc⟨U+202E⟩evil⟨U+202C⟩')
  const assistantRow = transcript.locator('[role=option][data-seq="3"]')
  await expect(assistantRow.locator('[data-hidden-char="200D"]')).toHaveCount(1) // in the tool call's name
  // The event type with the override is quoted by the harness's message: a marker there too.
  await expect(page.getByTestId('diagnostics').locator('[data-hidden-char="202E"]')).toHaveCount(1)
  // So do the diagnostics and the verdict banner that quote it (an override once reversed the banner's text).
  await expect(page.getByTestId('reject-banner').locator('[data-hidden-char="202E"]')).toHaveCount(1)
  for (const pane of ['transcript-pane', 'surface-pane', 'diagnostics', 'reject-banner']) {
    expect(hasHidden((await page.getByTestId(pane).textContent()) ?? '')).toBe(false)
  }

  // Search results: a snippet around the trick shows the markers, in and around the highlighted match.
  await page.getByTestId('search-input').fill('evil')
  const results = page.getByTestId('search-results')
  await expect(results).toHaveAttribute('data-done', 'true')
  await expect(results.locator('mark').first()).toHaveText('evil')
  await expect(results.locator('[data-hidden-char="202E"]').first()).toHaveText('⟨U+202E⟩')
  expect(hasHidden((await results.textContent()) ?? '')).toBe(false)
  await page.getByTestId('search-input').fill('')

  // Inspector: the warning with the whole value's count, one marker per hidden character, none left raw.
  await userRow.click()
  const banner = page.getByTestId('hidden-chars')
  const json = page.getByTestId('inspector-json')
  await expect(banner).toHaveAttribute('data-count', String(hidden.total))
  await expect(banner).toContainText(`This value contains ${hidden.total} bidirectional/invisible characters`)
  await expect(json.locator('[data-hidden-char="202E"]').first()).toHaveText('⟨U+202E⟩')
  await expect(json.locator('[data-hidden-char]')).toHaveCount(hidden.total)
  expect(hasHidden((await json.textContent()) ?? '')).toBe(false)
  await expect(page.getByTestId('expand-text')).toHaveAttribute('data-total', String(userJson.length))
  // A taller page for the screenshot, so the warning and the marked JSON line show together.
  await page.setViewportSize({ width: 1440, height: 1200 })
  await banner.evaluate((el) => el.scrollIntoView({ block: 'start' }))
  await json
    .locator('[data-hidden-char]')
    .first()
    .evaluate((el) => el.scrollIntoView({ block: 'nearest' }))
  await readmeScreenshot(page, 'inspector-hidden-chars')

  // Copy full value: the original characters, exactly the event's JSON.
  await page.getByTestId('copy-full').click()
  await expect(page.getByTestId('expand-text')).toHaveAttribute('data-copied', String(userJson.length))
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(userJson)

  // A selection copied with the keyboard: markers turn back into the characters they stand for.
  await page.evaluate(() => navigator.clipboard.writeText(''))
  await json.evaluate((el) => {
    const range = document.createRange()
    range.selectNodeContents(el)
    const selection = window.getSelection()
    selection?.removeAllRanges()
    selection?.addRange(range)
  })
  await page.keyboard.press('Control+C')
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(userJson)
})
