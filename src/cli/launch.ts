/**
 * dist-cli/dsh-lens.cjs, what the `dsh-lens` bin runs: it starts the bundled CLI (dist-cli/dsh-lens-main.cjs)
 * through V8's code cache, made by `npm run build:cli` from a training fold (build-cli.ts).
 *
 * Why: Node 20 has no compile cache of its own (module.enableCompileCache is Node 22), and on a 2-vCPU machine
 * compiling the CLI's JavaScript was a third of its start-up over `node -e 0`. With the cache V8 deserializes the
 * bytecode of everything a fold runs instead of parsing and compiling it. V8 checks the cache against its own
 * version, its flags and the source, and rejects a cache that does not match (another Node, `--max-old-space-size`,
 * a rebuilt bundle): the CLI then compiles as usual, so a stale or foreign cache only costs its read.
 *
 * Only the build writes the cache (DSH_LENS_WRITE_CODE_CACHE names the file, set by build-cli.ts for the training
 * run); a user's run never writes. DSH_LENS_TRACE_CODE_CACHE=1 says on standard error whether the cache was used.
 */

import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire, wrap } from 'node:module'
import { dirname, join } from 'node:path'
import { Script } from 'node:vm'

const bundle = join(__dirname, 'dsh-lens-main.cjs')
const cacheFile = `${bundle}.v8-cache`

let cachedData: Buffer | undefined
try {
  cachedData = readFileSync(cacheFile)
} catch {
  // No cache (a build without training, or a copied bundle): compile as usual.
}

const script = new Script(wrap(readFileSync(bundle, 'utf8')), { filename: bundle, cachedData })
if (process.env['DSH_LENS_TRACE_CODE_CACHE'] === '1') {
  const state = cachedData === undefined ? 'absent' : script.cachedDataRejected === true ? 'rejected' : 'accepted'
  process.stderr.write(`dsh-lens: code cache ${state}\n`)
}

const writeTo = process.env['DSH_LENS_WRITE_CODE_CACHE']
// After the run, so the cache holds the functions the fold compiled lazily too, not only the top level.
if (writeTo !== undefined) process.once('exit', () => writeFileSync(writeTo, script.createCachedData()))

const run = script.runInThisContext() as (
  exports: object,
  require: NodeJS.Require,
  module: { exports: object },
  filename: string,
  dirname: string,
) => void
const module_ = { exports: {} }
run.call(module_.exports, module_.exports, createRequire(bundle), module_, bundle, dirname(bundle))
