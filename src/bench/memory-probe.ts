/** Child process for the memory section: loads one log one way, then reports retained heap + array buffers after GC. */

import { readFileSync } from 'node:fs'
import { loadContentChecksum } from '../core/index.ts'
import { floorParse, harnessLoad, type Encoding } from './baselines.ts'
import { gc } from './measure.ts'
import { lensLoad } from './ours.ts'

const [path, encoding, mode] = process.argv.slice(2) as [string, Encoding, 'ours' | 'harness' | 'floor']
const checksum = await loadContentChecksum()
const used = (): number => {
  const m = process.memoryUsage()
  return m.heapUsed + m.arrayBuffers
}
gc()
const before = used()
let bytes: Uint8Array | null = readFileSync(path)
let kept: unknown
let indexBytes = 0
if (mode === 'ours') {
  const log = lensLoad(bytes, checksum)
  indexBytes = log.indexBytes
  kept = log
} else if (mode === 'harness') kept = harnessLoad(bytes, encoding)
else kept = floorParse(bytes, encoding)
bytes = null // the file's bytes are not part of what a loaded log retains
gc()
const retained = used() - before
process.stdout.write(JSON.stringify({ retained, indexBytes, rss: process.memoryUsage().rss, kept: kept !== undefined }) + '\n')
