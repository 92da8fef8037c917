/**
 * `serve --demo`: the bundled demo session (the scripted one `npm run demo` writes) written live into a
 * private temp sessions root, one batch per write window, so the viewer can be watched following a
 * growing log without a running dsh; its subagent child sits beside it in the same project directory,
 * as the harness stores children. It writes only below its own mkdtemp directory, never below the paths
 * given to `serve`.
 */

import { appendFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { batchText, demoSessions, headerLine, toJsonl } from '../generate/index.ts'

export interface DemoWriter {
  /** The sessions root to serve. */
  readonly root: string
  stop(): Promise<void>
}

export async function startDemoWriter(intervalMs = 200): Promise<DemoWriter> {
  const root = await mkdtemp(join(tmpdir(), 'dsh-lens-demo-'))
  const { parent, children } = demoSessions()
  for (const child of children) {
    const childDir = join(root, '--demo--', child.header.id)
    await mkdir(childDir, { recursive: true })
    await writeFile(join(childDir, 'session.jsonl'), toJsonl(child), { mode: 0o600 })
  }
  const dir = join(root, '--demo--', parent.header.id)
  await mkdir(dir, { recursive: true })
  const file = join(dir, 'session.jsonl')
  await writeFile(file, headerLine(parent.header), { mode: 0o600 })
  const batches = parent.batches[Symbol.iterator]()
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
