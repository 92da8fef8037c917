/**
 * The whole-process floor for `dsh-lens fold --json`: a plain Node program (bundled like the CLI) that reads
 * the file, decodes it (libzstd in WebAssembly per frame for zstd), JSON.parses every line and prints one small JSON line.
 * Any tool that answers from the parsed events costs at least this, start-up included.
 */

import { readFileSync } from 'node:fs'
import { floorParse } from './baselines.ts'

const [path, encoding] = process.argv.slice(2) as [string, 'jsonl' | 'zstd']
const records = floorParse(readFileSync(path), encoding)
process.stdout.write(JSON.stringify({ records: records.length }) + '\n')
