/**
 * The harness's own packed-row codec as a test oracle: `decodeStorageRecord` and `packChunkRuns` from its published
 * `lib/types/chunk-rows.js` (`@deepseek-ai/dsh-session@0.1.1-rc.2`). The file imports `CallId` (a brand: the string
 * itself) and `assertNever` from `@deepseek-ai/dsh-llm`, which is not installed; the test loads a copy with that one
 * import replaced by stubs, as `session-invariant-oracle.ts` does for the invariant companion.
 */

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'

const IMPORT = "import { CallId, assertNever } from '@deepseek-ai/dsh-llm';"

interface ChunkRows {
  decodeStorageRecord(value: unknown): unknown[]
  packChunkRuns(events: readonly unknown[]): unknown[]
}

async function load(): Promise<ChunkRows> {
  const index = createRequire(import.meta.url).resolve('@deepseek-ai/dsh-session/invariant')
  const path = join(dirname(index), 'types', 'chunk-rows.js')
  const source = readFileSync(path, 'utf8')
  if (!source.includes(IMPORT)) throw new Error(`the codec's imports changed: ${path}`)
  const stubbed = source
    .replace(/^\/\/# sourceMappingURL=.*$/m, '')
    .replace(
      IMPORT,
      'const CallId = (id) => id; const assertNever = (_value, what) => { throw new Error(`unreachable: ${what}`) };',
    )
  const copy = join(mkdtempSync(join(tmpdir(), 'dsh-session-chunk-rows-')), 'chunk-rows.mjs')
  writeFileSync(copy, stubbed)
  return (await import(pathToFileURL(copy).href)) as ChunkRows
}

const codec = await load()

/** The harness's decode of one parsed JSONL value: its events, or the error text it throws. */
export function harnessDecode(value: unknown): { events: unknown[] } | { error: string } {
  try {
    return { events: codec.decodeStorageRecord(value) }
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) }
  }
}

/** The harness's storage packing of an event batch. */
export function harnessPack(events: readonly unknown[]): unknown[] {
  return codec.packChunkRuns(events)
}
