/**
 * The replay end to end (issue 30): at 64x the bundled demo plays to its last event with the cursor only ever moving
 * forward and its long idle gaps said on the timeline; at 1x an answer streams into the transcript as it was
 * written; Space starts and pauses it, any other key or a click on the timeline pauses it.
 */

import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test, type Page } from '@playwright/test'
import type { TimingJson } from '../src/core/index.ts'
import { waitLoaded } from './support/app.ts'

const ROOT = fileURLToPath(new URL('../', import.meta.url))

// At 64x the demo plays in about 6 s of wall time (its 9 minutes, the four idle gaps a second each).
test.setTimeout(120_000)

/** Records, in the page, every cursor the timeline shows and how often an idle gap was announced at the time. */
async function recordCursor(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { cursors: number[]; idle: number }
    w.cursors = []
    w.idle = 0
    const timeline = document.querySelector('[data-testid=timeline]') as HTMLElement
    new MutationObserver(() => {
      w.cursors.push(Number(timeline.dataset['cursor']))
      if (document.querySelector('[data-testid=replay-idle]') !== null) w.idle++
    }).observe(timeline, { attributes: true, attributeFilter: ['data-cursor'] })
  })
}

const recorded = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { cursors: number[]; idle: number }
    return { cursors: w.cursors, idle: w.idle }
  })

test('replay at 64x: the demo plays to its end in order and says when it skips idle time', async ({ page }) => {
  await page.goto('/')
  await waitLoaded(page)
  const timeline = page.getByTestId('timeline')
  const max = Number(await timeline.getAttribute('data-max'))
  // From the start.
  await timeline.focus()
  await page.keyboard.press('Home')
  await expect(timeline).toHaveAttribute('data-cursor', '0')
  await page.getByTestId('replay-speed').selectOption('64')
  const play = page.getByTestId('play')
  await expect(play).toHaveAttribute('data-speed', '64')
  await recordCursor(page)
  await play.click()
  await expect(play).toHaveAttribute('data-playing', 'true')
  // It stops by itself at the end.
  await expect(timeline).toHaveAttribute('data-cursor', String(max), { timeout: 60_000 })
  await expect(play).toHaveAttribute('data-playing', 'false')
  const { cursors, idle } = await recorded(page)
  // Each frame moves it as far as the log's own times say (many events a frame at 64x): it passes through many
  // places on the way, never back.
  expect(new Set(cursors).size).toBeGreaterThan(10)
  expect(cursors).toStrictEqual([...cursors].sort((a, b) => a - b))
  expect(cursors.at(-1)).toBe(max)
  // The idle gaps (over a minute) were announced while they played.
  expect(idle).toBeGreaterThan(0)
})

test('at 1x an answer streams into the transcript as it was written', async ({ page }) => {
  const timing = JSON.parse(
    execFileSync(
      process.execPath,
      [join(ROOT, 'bin/dsh-lens.cjs'), 'timing', join(ROOT, 'public/demo/demo-session.jsonl'), '--json'],
      {
        encoding: 'utf8',
      },
    ),
  ) as TimingJson
  // The demo's longest generation: several seconds of streaming.
  const step = [...timing.steps].sort((a, b) => (b.generationMs ?? 0) - (a.generationMs ?? 0))[0] as TimingJson['steps'][number]
  await page.goto(`/#seq=${step.atSeq}`)
  await waitLoaded(page)
  const timeline = page.getByTestId('timeline')
  await expect(timeline).toHaveAttribute('data-cursor', String(step.atSeq))
  await page.getByTestId('play').click()
  const stream = page.getByTestId('transcript-streaming')
  await expect(stream).toHaveAttribute('data-step', `${step.turn}.${step.step}`)
  const deltas = async () => Number(await stream.getAttribute('data-deltas'))
  await expect.poll(deltas).toBeGreaterThan(0)
  const first = await deltas()
  await expect.poll(deltas).toBeGreaterThan(first)
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('play')).toHaveAttribute('data-playing', 'false')
})

test('Space plays and pauses; scrubbing or any other key pauses it', async ({ page }) => {
  await page.goto('/')
  await waitLoaded(page)
  const timeline = page.getByTestId('timeline')
  const play = page.getByTestId('play')
  await timeline.focus()
  await page.keyboard.press('Home')
  await expect(timeline).toHaveAttribute('data-cursor', '0')
  // Space on the timeline plays (1x: the demo's first events come a few ms apart, then a request's wait).
  await page.keyboard.press(' ')
  await expect(play).toHaveAttribute('data-playing', 'true')
  await expect.poll(async () => Number(await timeline.getAttribute('data-cursor'))).toBeGreaterThan(0)
  await page.keyboard.press(' ')
  await expect(play).toHaveAttribute('data-playing', 'false')
  // Again, then a key that means nothing to the page pauses it too.
  await page.keyboard.press(' ')
  await expect(play).toHaveAttribute('data-playing', 'true')
  await page.keyboard.press('x')
  await expect(play).toHaveAttribute('data-playing', 'false')
  const paused = await timeline.getAttribute('data-cursor')
  // Paused means the cursor stays: the same after ten more frames (playing, it moved on almost every frame here).
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        let frames = 0
        const next = (): void => void (++frames === 10 ? resolve() : requestAnimationFrame(next))
        requestAnimationFrame(next)
      }),
  )
  await expect(timeline).toHaveAttribute('data-cursor', paused ?? '')
  // Scrubbing pauses: a click on the track.
  await play.click()
  await expect(play).toHaveAttribute('data-playing', 'true')
  const box = await timeline.boundingBox()
  if (box === null) throw new Error('no timeline')
  await page.mouse.click(box.x + box.width * 0.5, box.y + box.height / 2)
  await expect(play).toHaveAttribute('data-playing', 'false')
})
