// @vitest-environment jsdom
/**
 * The deep link (`#seq=N&sel=M`) of the page's own source is applied even when the log was ready before the app
 * mounted: start-lens.ts opens the source first and the staged boot mounts React later, so a small `?log=` can be
 * folded completely before `useHashSync` subscribes (an e2e deep-link test failed on that once under load).
 */

import { afterEach, beforeEach, expect, it } from 'vitest'
import { demoSessionJsonl } from '../../generate/index.ts'
import { createLensStore, type LensStore } from '../../store/create-lens-store.ts'
import { LensProvider } from '../../store/lens-store-context.tsx'
import { createInThreadClient } from '../../worker/in-thread-client.ts'
import { mount, until } from '../../test-support/react-act.tsx'
import { useHashSync } from './use-hash-sync.ts'

let dispose: (() => void) | undefined
beforeEach(() => history.replaceState(null, '', location.pathname))
afterEach(() => dispose?.())

function HashSync() {
  useHashSync()
  return null
}

async function readyStore(): Promise<LensStore> {
  const store = createLensStore({ lens: createInThreadClient() })
  // A feed that ends is a whole load (jsdom's File cannot be read in slices); the hook treats every first load alike.
  const feed = store.getState().startLiveFeed('demo.jsonl')
  feed.append(demoSessionJsonl())
  feed.end()
  // Folded to the end (a feed is 'ready' while it grows; `final` is the whole load).
  await until(
    () => store.getState().summary?.final === true,
    () => store.getState().loadState,
  )
  return store
}

function mountHashSync(store: LensStore): void {
  mount(
    <LensProvider store={store}>
      <HashSync />
    </LensProvider>,
  )
  dispose = () => store.client.dispose()
}

it('applies the hash of a log that was ready before the hook subscribed', async () => {
  const store = await readyStore()
  const length = store.getState().summary?.length ?? 0
  expect(store.getState().cursor).toBe(length - 1)
  history.replaceState(null, '', '#seq=5&sel=3')
  mountHashSync(store)
  await until(
    () => store.getState().cursor === 5 && store.getState().selected === 3,
    () => `cursor ${store.getState().cursor}, selected ${store.getState().selected}`,
  )
  // ...and, once applied, keeps it in the URL (the writer starts only after the apply).
  await until(
    () => location.hash === '#seq=5&sel=3',
    () => `hash ${location.hash}`,
  )
})

it('without a hash, leaves the cursor at the end and writes it back', async () => {
  const store = await readyStore()
  const length = store.getState().summary?.length ?? 0
  mountHashSync(store)
  await until(
    () => location.hash === `#seq=${length - 1}`,
    () => `hash ${location.hash}`,
  )
  expect(store.getState().cursor).toBe(length - 1)
})
