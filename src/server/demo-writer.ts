/**
 * `serve --demo`: a generated session written live into a private temp sessions root, one batch per
 * write window, so the viewer can be watched following a growing log without a running dsh. It writes
 * only below its own mkdtemp directory, never below the paths given to `serve`.
 */

import { appendFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { batchText, headerLine, streamSession } from '../core/generate/index.ts'

export interface DemoWriter {
  /** The sessions root to serve. */
  readonly root: string
  stop(): Promise<void>
}

export async function startDemoWriter(intervalMs = 200, targetEvents = 40_000): Promise<DemoWriter> {
  const root = await mkdtemp(join(tmpdir(), 'dsh-lens-demo-'))
  const stream = streamSession({ seed: Date.now() % 100_000, targetEvents, createdAt: Date.now(), hugeToolResultEvery: 0 })
  const dir = join(root, '--demo--', stream.header.id)
  await mkdir(dir, { recursive: true })
  const file = join(dir, 'session.jsonl')
  await writeFile(file, headerLine(stream.header), { mode: 0o600 })
  const batches = stream.batches[Symbol.iterator]()
  let stopped = false
  const loop = (async () => {
    while (!stopped) {
      const next = batches.next()
      if (next.done === true) break
      await appendFile(file, batchText(next.value))
      await new Promise((resolve) => setTimeout(resolve, intervalMs))
    }
  })()
  return {
    root,
    async stop() {
      stopped = true
      await loop
      await rm(root, { recursive: true, force: true })
    },
  }
}
