/**
 * The harness's read + fold as a whole process: the floor, packed-row expansion and `foldSurface` of
 * `@deepseek-ai/dsh-session/surface`, printing its nodes and replacements as JSON (what `fold --json` prints
 * the core of). Bundled like the CLI, so neither side pays for TypeScript at start-up.
 */

import { readFileSync } from 'node:fs'
import { foldSurface } from '@deepseek-ai/dsh-session/surface'
import { expandRecords, floorParse } from './baselines.ts'

const [path, encoding] = process.argv.slice(2) as [string, 'jsonl' | 'zstd']
const events = expandRecords(floorParse(readFileSync(path), encoding))
const folded = foldSurface(events as Parameters<typeof foldSurface>[0])
process.stdout.write(JSON.stringify({ eventCount: events.length, nodes: folded.nodes, replacements: folded.replacements }) + '\n')
