/**
 * The navigation floor's page (navigation-lane.ts, issue 10 target 2): `bench-floor-nav.html?log=URL&zstd=0|1` starts
 * one dedicated worker that fetches the URL and parses every line (floor-worker.ts), nothing else: no app, no
 * framework. `window.__floorNav` holds the page clock (from navigation) when the reply arrived, or the error.
 * Bundled on its own by browser-bench.ts (esbuild) into the served build; the app never loads it.
 */

import type { FloorReply, FloorRequest } from './floor-worker.ts'

interface FloorNav {
  doneAt?: number
  reply?: FloorReply
  error?: string
}

const state: FloorNav = {}
;(window as unknown as { __floorNav: FloorNav }).__floorNav = state
const params = new URLSearchParams(location.search)
const url = params.get('log')
if (url === null) state.error = 'no ?log= given'
else {
  const worker = new Worker('/bench-floor-worker.js', { type: 'module' })
  worker.addEventListener('message', (event: MessageEvent<FloorReply | { kind: 'error'; message: string }>) => {
    if (event.data.kind === 'error') state.error = event.data.message
    else state.reply = event.data
    state.doneAt = performance.now()
  })
  worker.addEventListener('error', (event) => (state.error = `floor worker failed: ${event.message}`))
  worker.postMessage({ kind: 'floor-url', url, zstd: params.get('zstd') === '1' } satisfies FloorRequest)
}
