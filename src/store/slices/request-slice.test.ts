/** Request view state: opening the tab pins or follows, and a new load drops a step picked in the previous log. */

import { expect, it } from 'vitest'
import { createInThreadClient } from '../../worker/in-thread-client.ts'
import { createLensStore, type LensState, type LensStore } from '../create-lens-store.ts'

const HEADER = '{"type":"session","version":0,"id":"s","createdAt":0,"delegationDepth":0}\n'

function until(store: LensStore, predicate: (s: LensState) => boolean): Promise<LensState> {
  return new Promise((resolve) => {
    if (predicate(store.getState())) return resolve(store.getState())
    const unsubscribe = store.subscribe((s) => {
      if (!predicate(s)) return
      unsubscribe()
      resolve(s)
    })
  })
}

it('openRequest pins a step or follows the cursor; a new load follows again; the tab stays', async () => {
  const store = createLensStore({ lens: createInThreadClient() })
  expect(store.getState().middleTab).toBe('surface')
  store.getState().openRequest({ turn: 2, step: 1 })
  expect(store.getState()).toMatchObject({ middleTab: 'request', requestPin: { turn: 2, step: 1 } })
  store.getState().openRequest(null)
  expect(store.getState()).toMatchObject({ middleTab: 'request', requestPin: null })
  store.getState().openRequest({ turn: 1, step: 1 })
  const generation = store.getState().loadGeneration
  store.getState().loadFile(new File([HEADER], 'empty.jsonl'))
  await until(store, (s) => s.loadGeneration !== generation)
  expect(store.getState()).toMatchObject({ middleTab: 'request', requestPin: null })
  store.getState().setMiddleTab('surface')
  expect(store.getState().middleTab).toBe('surface')
  store.client.dispose()
})
