/** Feeding bytes to a lens worker client in tests, the way the live controller and the file loader do. */

import type { LensClient } from '../protocol/lens-client.ts'

/**
 * Stream `chunks` into `c` as one load; resolves with its load id once the final summary arrived (or, with `end`
 * false, the first summary: a live load that stays open).
 */
export async function streamInto(c: LensClient, chunks: readonly Uint8Array[], live: boolean, end: boolean): Promise<number> {
  const loadId = c.beginStream('test.jsonl', null, live)
  const done = new Promise<void>((resolve) => {
    const unsubscribe = c.subscribe((event) => {
      if (event.type === 'summary' && event.loadId === loadId && (event.summary.final || !end)) {
        unsubscribe()
        resolve()
      }
    })
  })
  // A copy of exactly each chunk's bytes: the client transfers (detaches) what it is given.
  for (const chunk of chunks) c.pushChunk(loadId, new Uint8Array(chunk))
  if (end) c.endStream(loadId)
  await done
  return loadId
}
