/**
 * The request a provider would reject, said (issue 31 §1), on a copy of a real fixture with one tool result removed
 * (built here from the fixture's bytes, later seqs renumbered so the harness still reads it; never copied into the
 * repository): the steps whose request leaves the call unanswered carry the banner `[data-testid=request-rejected]`
 * naming the rule, the message (index and seq) and the provider's answer; the offending row is marked; the step list
 * marks those steps; the diagnostic's click opens the Request view on the first of them. The unbroken fixture shows
 * none of it. Expectations come from the core in Node on the same bytes.
 */

import { expect, test } from '@playwright/test'
import { PROVIDER_ANSWERS, stepList, stepRequest } from '../src/core/index.ts'
import { dropEvent, firstToolResultSeq } from '../src/test-support/drop-event.ts'
import { clipTo, fixtureBytes, openLog, readmeScreenshot } from './support/app.ts'
import { foldInNode } from './support/expected.ts'

// A fixture the harness reads cleanly (a real cwd, not a template placeholder) with a tool call and its result.
const FIXTURE = 'acp--session-sandbox-root--session.jsonl'

function broken(): string {
  const text = fixtureBytes(FIXTURE).toString('utf8')
  return dropEvent(text, firstToolResultSeq(text) as number)
}

test('a broken copy of a real fixture: banner, marked row and step, and the diagnostic opens the rejected step', async ({
  page,
}) => {
  const jsonl = broken()
  const log = await foldInNode(jsonl)
  const steps = stepList(log)
  const position = steps.findIndex((s) => s.rejected.length > 0)
  expect(position).toBeGreaterThan(0)
  const step = steps[position] as (typeof steps)[number]
  const name = `${step.turn}.${step.step}`
  const request = stepRequest(log, position)
  const rejection = request?.rejected[0]
  expect(rejection?.code).toBe('unanswered-tool-call')
  const diagnostic = log.diagnostics.find((d) => d.code === 'unanswered-tool-call')
  expect(diagnostic?.seq).toBeLessThan(step.atSeq)

  await page.setViewportSize({ width: 1400, height: 900 })
  await openLog(page, 'broken-session-sandbox-root.jsonl', jsonl)
  // The diagnostic sits at the step/end where the call went unanswered; its click opens the request that carries it
  // (before: the cursor landed on the step before, whose request was fine).
  const row = page.locator(`[data-testid=diagnostic][data-code=unanswered-tool-call]`)
  await row.click()
  await expect(page.getByTestId('request-pane')).toHaveAttribute('data-step', name)
  await expect(page.getByTestId('request-pane')).toHaveAttribute('data-following', 'false')

  const banner = page.getByTestId('request-rejected')
  await expect(banner).toHaveAttribute('data-codes', 'unanswered-tool-call')
  const rule = banner.locator('[data-testid=request-rejected-rule][data-code=unanswered-tool-call]')
  await expect(rule).toContainText('a tool call is not answered right after it')
  await expect(rule).toContainText(`message ${rejection?.index} (#${rejection?.seq})`)
  await expect(rule).toContainText(rejection?.message as string)
  await expect(rule).toContainText("An assistant message with 'tool_calls' must be followed by tool messages")
  expect(PROVIDER_ANSWERS['unanswered-tool-call']).toContain('HTTP 400')
  const marked = page.getByRole('listbox', { name: 'Request messages' }).locator('[data-rejected]')
  await expect(marked).toHaveCount(1)
  await expect(marked).toHaveAttribute('data-rejected', 'unanswered-tool-call')
  await expect(page.locator(`#request-${rejection?.index} [data-rejected]`)).toHaveCount(1)
  // The step list: the rejected steps and only those.
  const options = page.getByTestId('request-step-select').locator('option[data-step]')
  await expect(options).toHaveCount(steps.length)
  await expect(page.getByTestId('request-step-select').locator('option[data-rejected=true]')).toHaveCount(
    steps.filter((s) => s.rejected.length > 0).length,
  )
  await expect(page.getByTestId('request-step-select').locator(`option[data-step="${name}"]`)).toContainText(`⚠ ${name}`)
  // The README's picture: the Request view widened (splitters, by keyboard) so the banner reads in few lines, framed
  // from the step list (its ⚠) to the end of the banner.
  await page.getByRole('separator', { name: 'Resize transcript' }).focus()
  for (let k = 0; k < 6; k++) await page.keyboard.press('ArrowLeft')
  await page.getByRole('separator', { name: 'Resize model surface' }).focus()
  for (let k = 0; k < 12; k++) await page.keyboard.press('ArrowRight')
  await expect.poll(async () => (await page.getByTestId('request-pane').boundingBox())?.width).toBeGreaterThan(760)
  await page.getByTestId('request-step-select').focus()
  await readmeScreenshot(page, 'request-rejected', await clipTo(page.getByTestId('request-pane'), banner))
  // The seq link selects the offending message's event.
  await banner.locator(`[data-seq-link="${rejection?.seq}"]`).first().click()
  await expect(page.getByTestId('inspector')).toContainText(`#${rejection?.seq}`)
})

test('the fixture as logged: no banner, no marks', async ({ page }) => {
  const bytes = fixtureBytes(FIXTURE)
  const log = await foldInNode(bytes)
  expect(stepList(log).every((s) => s.rejected.length === 0)).toBe(true)
  await openLog(page, FIXTURE, bytes)
  await page.getByTestId('request-tab').click()
  for (const [index, s] of stepList(log).entries()) {
    // By value (the step's position), not by index: selectOption waits for that option, where index 0 is the
    // "step…" placeholder until the step list arrives (a busy machine picked it, and nothing).
    await page.getByTestId('request-step-select').selectOption(String(index))
    await expect(page.getByTestId('request-pane')).toHaveAttribute('data-step', `${s.turn}.${s.step}`)
    await expect(page.getByTestId('request-rejected')).toHaveCount(0)
    await expect(page.getByRole('listbox', { name: 'Request messages' }).locator('[role=option]').first()).toBeVisible()
    await expect(page.getByRole('listbox', { name: 'Request messages' }).locator('[data-rejected]')).toHaveCount(0)
  }
  await expect(page.getByTestId('request-step-select').locator('option[data-rejected]')).toHaveCount(0)
})
