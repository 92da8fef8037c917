/**
 * The Secrets answer (issue 39) on logs with planted secrets, generated here (no secret-shaped literal is committed):
 * scanned in the worker when the answer is opened (not before), every place the CLI's `secrets --json` lists with its
 * seq, kind and "seen by the model" spans and steps, a sentence that says when the model was sent it, a link that
 * lands on its event (cursor, selection, inspector), and no secret value anywhere in the answer's DOM (text or
 * attributes) nor in the inspector's.
 */

import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import type { SecretJson } from '../src/cli/secrets-json.ts'
import { secretKindLabel } from '../src/core/index.ts'
import { plantedValues } from '../src/test-support/planted-secrets.ts'
import { corpusLog, plantedJsonl } from '../src/test-support/secret-log.ts'
import { dropFile, readmeScreenshot, clipTo, waitLoaded } from './support/app.ts'
import { secretsInDom } from './support/offline-page.ts'

const ROOT = new URL('../', import.meta.url).pathname
const TSX = join(ROOT, 'node_modules/.bin/tsx')
const dir = mkdtempSync(join(tmpdir(), 'lens-secrets-e2e-'))

/** `dsh-lens secrets FILE --json`, the contract the page must agree with. */
function cliSecrets(file: string): SecretJson[] {
  const r = spawnSync(TSX, ['src/cli/main.ts', 'secrets', file, '--json'], { cwd: ROOT, encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`dsh-lens secrets failed: ${r.stderr}`)
  return JSON.parse(r.stdout) as SecretJson[]
}

test('the Secrets answer lists what secrets --json lists, says when the model saw each, and lands on it', async ({ page }) => {
  test.setTimeout(90_000)
  // Assistant text: each secret in a message (on the model surface) and in the deltas it streamed as (never sent).
  const { events, plants } = corpusLog('assistant-text', 21)
  const jsonl = plantedJsonl(events, false)
  const file = join(dir, 'planted.jsonl')
  writeFileSync(file, jsonl)
  const expected = cliSecrets(file)
  const values = plants.flatMap((p) => plantedValues(p.secret).map((v) => v.value))
  expect(expected.length).toBeGreaterThan(plants.length)

  await page.goto('/')
  await waitLoaded(page)
  await dropFile(page, 'planted.jsonl', jsonl)
  await expect(page.getByTestId('app')).toHaveAttribute('data-load-state', 'ready')
  await expect(page.getByTestId('app')).toHaveAttribute('data-load-state', 'ready')
  await expect(page.getByTestId('secrets')).toHaveCount(0)
  await page.getByTestId('secrets-toggle').click()
  const answer = page.getByTestId('secrets')
  await expect(answer).toHaveAttribute('data-state', 'ready')
  await expect(answer).toHaveAttribute('data-count', String(expected.length))
  await expect(answer).toHaveAttribute('data-distinct', String(new Set(expected.map((e) => e.hash)).size))
  await expect(page.getByTestId('secrets-toggle')).toHaveAttribute(
    'data-count',
    String(new Set(expected.map((e) => e.hash)).size),
  )
  const places = answer.getByTestId('secret-finding')
  await expect(places).toHaveCount(expected.length)
  // Place by place, the CLI's contract: seq, kind, masked, hash, and the spans and steps the model was sent it in.
  const shown = await places.evaluateAll((els) =>
    els.map((el) => ({
      seq: el.getAttribute('data-seq'),
      kind: el.getAttribute('data-kind'),
      hash: el.getAttribute('data-hash'),
      seen: el.getAttribute('data-seen-by-model'),
      ranges: el.querySelector('[data-testid=secret-seen]')?.getAttribute('data-seen-ranges'),
      steps: el.querySelector('[data-testid=secret-seen]')?.getAttribute('data-seen-steps'),
      text: el.textContent ?? '',
    })),
  )
  expect(shown.map(({ seq, kind, hash, seen, ranges, steps }) => ({ seq, kind, hash, seen, ranges, steps }))).toStrictEqual(
    expected.map((e) => ({
      seq: String(e.seq),
      kind: e.kind,
      hash: e.hash,
      seen: String(e.seenByModel.length > 0),
      ranges: e.seenByModel.map((s) => `${s.fromSeq}-${s.toSeq}`).join(','),
      steps: e.seenByModel.map((s) => s.steps ?? '-').join(','),
    })),
  )
  for (const [k, e] of expected.entries()) expect(shown[k]?.text).toContain(e.masked)
  // The sentence, for a place the model was sent: the kind in words and the CLI's steps.
  const sent = expected.findIndex((e) => e.seenByModel.some((s) => s.steps !== null))
  expect(sent).toBeGreaterThanOrEqual(0)
  const first = expected[sent] as SecretJson
  const steps = first.seenByModel.find((s) => s.steps !== null)?.steps as string
  await expect(places.nth(sent).getByTestId('secret-seen')).toContainText(
    `The model was sent your ${secretKindLabel(first.kind)} at ${steps.includes('–') ? 'steps' : 'step'} ${steps}`,
  )
  const never = expected.findIndex((e) => e.seenByModel.length === 0)
  await expect(places.nth(never).getByTestId('secret-seen')).toHaveText(
    'Never sent to the model: the event holding it was never on the model surface.',
  )
  expect(await secretsInDom(page, values, answer)).toStrictEqual([])
  await readmeScreenshot(
    page,
    'secrets-answer',
    await clipTo(page.getByTestId('secrets'), page.getByTestId('secrets')),
    'docs/images',
  )

  // Its link lands exactly on its event: the cursor, the selection, the inspector with that place.
  const target = expected[sent] as SecretJson
  await places.nth(sent).getByTestId('secret-link').click()
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-cursor', String(target.seq))
  await expect(page.getByTestId('transcript-pane').locator(`[role=option][aria-selected=true]`)).toHaveAttribute(
    'data-seq',
    String(target.seq),
  )
  const inspector = page.getByTestId('inspector-secrets')
  await expect(inspector).toBeVisible()
  await expect(inspector.locator(`[data-testid=secret-finding][data-hash="${target.hash}"]`)).toHaveAttribute(
    'data-seq',
    String(target.seq),
  )
  expect(await secretsInDom(page, values, inspector)).toStrictEqual([])
})

test('nothing is scanned until the answer is asked; a clean log says so', async ({ page }) => {
  await page.goto('/')
  await waitLoaded(page)
  await expect(page.getByTestId('secrets-toggle')).not.toHaveAttribute('data-count', /.*/)
  await page.getByTestId('secrets-toggle').click()
  const answer = page.getByTestId('secrets')
  await expect(answer).toHaveAttribute('data-state', 'ready')
  await expect(answer).toHaveAttribute('data-count', '0')
  await expect(answer.getByRole('status')).toHaveText(/^No secrets found in [\d,]+ events\.$/)
  await page.getByTestId('secrets-toggle').click()
  await expect(answer).toHaveCount(0)
})
