/**
 * Links that land where they say, for logs opened from a disk: a dropped file's link names the file (name, size, the
 * first 16 hex digits of its SHA-256); opened in a new page it asks for that file (never the demo, never a silent
 * wrong state), a different file is said to differ and opens from its start, and the right file lands on the state.
 * Also the static build's first screen: the demo, with a line on how to open your own sessions.
 */

import { createHash } from 'node:crypto'
import { expect, test } from '@playwright/test'
import { dropFile, fixtureBytes, waitLoaded } from './support/app.ts'

const NAME = 'acp--fs-edit--session.jsonl'
const OTHER = 'acp--agent-instructions--session.jsonl'

test('the demo is the static first screen, with how to open your own sessions', async ({ page }) => {
  await page.goto('/')
  await waitLoaded(page)
  await expect(page.getByTestId('own-sessions-hint')).toContainText('npx dsh-lens')
  await expect(page).toHaveTitle('demo-session.jsonl — dsh-lens')
})

test("a dropped file's link asks for that file in a new page, tells another file apart, and lands on the state", async ({
  page,
  context,
}) => {
  test.setTimeout(90_000)
  const bytes = fixtureBytes(NAME)
  const other = fixtureBytes(OTHER)
  const sha = createHash('sha256').update(bytes).digest('hex').slice(0, 16)
  await page.goto('/')
  await waitLoaded(page)
  await dropFile(page, NAME, bytes)
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-max', /^\d+$/)
  await waitLoaded(page)
  // Read through and hashed: the address names the file.
  await expect(page).toHaveURL(new RegExp(`\\?file=${NAME}&size=${bytes.length}&sha256=${sha}`))
  await page.getByTestId('timeline').focus()
  await page.keyboard.press('Home')
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight')
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-cursor', '5')
  await page.getByTestId('copy-link').click()
  const link = (await page.getByTestId('copy-link').getAttribute('data-link')) as string
  expect(link).toMatch(new RegExp(`/\\?file=${NAME}&size=${bytes.length}&sha256=${sha}#seq=5$`))

  const second = await context.newPage()
  await second.goto(link)
  const needs = second.getByTestId('link-needs-file')
  await expect(needs).toHaveAttribute('data-file-name', NAME)
  await expect(needs).toHaveAttribute('data-sha256', sha)
  await expect(needs).toContainText('seq 5')
  // Not the demo, nor anything else.
  await expect(second.getByTestId('app')).toHaveAttribute('data-load-state', 'idle')
  await expect(second.getByTestId('own-sessions-hint')).toHaveCount(0)

  // Another file: opened from its start, and said to differ.
  await dropFile(second, OTHER, other)
  await waitLoaded(second)
  await expect(second.getByTestId('link-file-differs')).toContainText(sha)
  const otherMax = await second.getByTestId('timeline').getAttribute('data-max')
  await expect(second.getByTestId('timeline')).toHaveAttribute('data-cursor', otherMax as string)

  // The right file: the link's state.
  await dropFile(second, NAME, bytes)
  await waitLoaded(second)
  await expect(second.getByTestId('timeline')).toHaveAttribute('data-cursor', '5')
  await expect(second.getByTestId('link-needs-file')).toHaveCount(0)
  await expect(second.getByTestId('link-file-differs')).toHaveCount(0)
  await expect(second).toHaveURL(new RegExp(`\\?file=${NAME}&size=${bytes.length}&sha256=${sha}#seq=5$`))
})
