// @vitest-environment jsdom
/**
 * The context chart's series hook over the real store and the in-thread worker host: it answers the worker's series
 * for the width asked (the core's downsampling of the demo), asks again when the width changes and follows a live log
 * as it grows. The pacing rules themselves (one in flight, intervals, quiet while scrubbing) are query-pacer.test.ts's.
 */

import { act, useSyncExternalStore } from 'react'
import { expect, it } from 'vitest'
import { LensLog, loadContentChecksum } from '../../../core/index.ts'
import { ContextSeries } from '../../../core/series/context-series.ts'
import { downsampleContext } from '../../../core/series/downsample-context.ts'
import { demoSessionJsonl } from '../../../generate/index.ts'
import type { ContextSeriesAnswer } from '../../../protocol/context-series.ts'
import { createLensStore } from '../../../store/create-lens-store.ts'
import { LensProvider } from '../../../store/lens-store-context.tsx'
import { mount, until } from '../../../test-support/react-act.tsx'
import { createInThreadClient } from '../../../worker/in-thread-client.ts'
import { useContextSeries } from './use-context-series.ts'

const demoText = demoSessionJsonl()
const checksum = await loadContentChecksum()

/** The core's view of the first `lines` lines at `width` buckets: what the hook must end up showing. */
function coreView(text: string, width: number) {
  const log = new LensLog({ checksum })
  log.push(new TextEncoder().encode(text))
  const series = new ContextSeries()
  series.update(log)
  return { events: log.length, x: Array.from(downsampleContext(series, width, 0, series.events).x) }
}

function harness() {
  const store = createLensStore({ lens: createInThreadClient() })
  let width = 300
  const listeners = new Set<() => void>()
  const answers: (ContextSeriesAnswer | null)[] = []
  function Probe() {
    const w = useSyncExternalStore(
      (l) => {
        listeners.add(l)
        return () => listeners.delete(l)
      },
      () => width,
    )
    answers.push(useContextSeries(w))
    return null
  }
  mount(
    <LensProvider store={store}>
      <Probe />
    </LensProvider>,
  )
  const setWidth = (w: number) =>
    act(() => {
      width = w
      listeners.forEach((l) => l())
    })
  return { store, setWidth, latest: () => answers.at(-1) ?? null }
}

it('answers for the width asked, again for a new width, and follows a growing log', async () => {
  const { store, setWidth, latest } = harness()
  const lines = demoText.split(/(?<=\n)/)
  const feed = store.getState().startLiveFeed('live')
  const half = lines.slice(0, 1200).join('')
  feed.append(half)
  const early = coreView(half, 300)
  await until(
    () => latest()?.events === early.events && latest()?.complete === true,
    () => `events ${latest()?.events} of ${early.events}`,
  )
  expect(Array.from(latest()?.x ?? [])).toStrictEqual(early.x)
  feed.append(lines.slice(1200).join(''))
  const whole = coreView(demoText, 300)
  await until(
    () => latest()?.events === whole.events,
    () => `events ${latest()?.events} of ${whole.events}`,
  )
  setWidth(80)
  const narrow = coreView(demoText, 80)
  await until(
    () => latest()?.x.length === narrow.x.length,
    () => `${latest()?.x.length} points for 80, want ${narrow.x.length}`,
  )
  expect(Array.from(latest()?.x ?? [])).toStrictEqual(narrow.x)
  feed.end()
})
