/**
 * `npm run build:cli`: the CLI as plain JavaScript, so `dsh-lens` starts without transpiling TypeScript
 * (tsx transpiles at every start). CommonJS bundles in dist-cli/:
 * - dsh-lens.cjs, the launcher (src/cli/launch.ts) the bin runs: it starts the next one through V8's code cache;
 * - dsh-lens-main.cjs, the CLI itself (src/cli/main.ts), with dsh-lens-main.cjs.v8-cache beside it;
 * - one bundle per command a fold never needs (`ON_DEMAND` below: check's report, open, serve, diff, find, cost,
 *   usage, secrets and redact, bundle, generate-demo).
 *
 * CommonJS because only a classic script can be given a code cache in Node 20 (vm.Script's cachedData; there is
 * no cache for ES modules before Node 22). The commands most runs never use (serve, generate-demo) stay in the
 * bundle as lazily initialized modules: V8 only pre-parses them, and the cache skips even that.
 *
 * The cache is trained, not just compiled: the launcher runs `fold --json` on the bundled demo session and
 * writes the cache at exit, so it holds the bytecode of every function a fold runs.
 *
 * Every JavaScript dependency is bundled (fzstd, zstddec, xxhash-wasm, ws), so the built CLI runs from an `npm pack`
 * tarball or a bare checkout without node_modules. ws's optional native speed-ups stay external: ws loads them inside a
 * try and falls back to JavaScript. better-sqlite3 (native, the content index of `find` and `index`) stays external
 * too: it is a dependency npm installs and compiles, loaded only by those two commands.
 */

import { build, type Plugin } from 'esbuild'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { demoSessionJsonl } from '../generate/index.ts'

const root = fileURLToPath(new URL('../../', import.meta.url))
// `--outdir DIR` builds elsewhere (the tests and the bench build into their own folders).
const at = process.argv.indexOf('--outdir')
const outdir = at === -1 ? `${root}dist-cli` : (process.argv[at + 1] as string)

/**
 * The commands few runs use are bundles of their own, required on demand: the CLI's file is then the core and the
 * common commands (less than half the whole), which is what every start reads from disk and hands to V8.
 */
const ON_DEMAND: Record<string, string> = {
  './open-command.ts': 'dsh-lens-open',
  './diff-command.ts': 'dsh-lens-diff',
  './serve-command.ts': 'dsh-lens-serve',
  '../generate/index.ts': 'dsh-lens-generate',
  './find-command.ts': 'dsh-lens-find',
  // Each of these in the CLI's own file made every start read and compile it: `fold --json` of a 4-line log started
  // 1.16x slower than at 7d65d78 (A/B in docs/benchmarks.md) until they had bundles of their own.
  './cost-command.ts': 'dsh-lens-cost',
  './usage/usage-command.ts': 'dsh-lens-usage',
  './secrets-command.ts': 'dsh-lens-secrets',
  './bundle-command.ts': 'dsh-lens-bundle',
  // check's report prices the log and counts its secrets: the cost and secrets code is in its bundle, not the CLI's.
  './check-report.ts': 'dsh-lens-check',
}
const onDemand: Plugin = {
  name: 'lens-on-demand-commands',
  setup(on) {
    on.onResolve({ filter: /^\.\.?\// }, (args) => {
      const chunk = ON_DEMAND[args.path]
      if (args.kind !== 'dynamic-import' || chunk === undefined || !args.importer.endsWith('src/cli/main.ts')) return
      return { path: `./${chunk}.cjs`, external: true }
    })
  },
}

rmSync(outdir, { recursive: true, force: true })
await build({
  absWorkingDir: root,
  entryPoints: {
    'dsh-lens': 'src/cli/launch.ts',
    'dsh-lens-main': 'src/cli/main.ts',
    ...Object.fromEntries(Object.entries(ON_DEMAND).map(([path, chunk]) => [chunk, join('src/cli', path)])),
    // The content index's worker threads, started by path (src/server/content-index/worker-script.ts).
    'dsh-lens-extract-worker': 'src/server/content-index/extract-worker.ts',
  },
  plugins: [onDemand],
  // import() of an on-demand bundle becomes require(): the CLI runs as a classic script (launch.ts), which has
  // no module loader for import().
  supported: { 'dynamic-import': false },
  outdir,
  outExtension: { '.js': '.cjs' },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  // better-sqlite3 is a native module (the content index's SQLite): Node loads it from node_modules at run time.
  external: ['bufferutil', 'utf-8-validate', 'better-sqlite3'],
  // The sources are ES modules that find their neighbours (the viewer's dist/) from import.meta.url,
  // which a CommonJS bundle does not have: it is the bundle's own file URL.
  define: { 'import.meta.url': '__lensModuleUrl' },
  banner: { js: "const __lensModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
  legalComments: 'none',
  sourcemap: 'linked',
  logLevel: 'warning',
})

const training = mkdtempSync(join(tmpdir(), 'lens-code-cache-'))
try {
  const log = join(training, 'demo.jsonl')
  writeFileSync(log, demoSessionJsonl())
  const run = spawnSync(process.execPath, [join(outdir, 'dsh-lens.cjs'), 'fold', log, '--json'], {
    env: { ...process.env, DSH_LENS_WRITE_CODE_CACHE: join(outdir, 'dsh-lens-main.cjs.v8-cache') },
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  })
  if (run.status !== 0) throw new Error(`the code cache's training fold failed (${run.status}): ${run.stderr}`)
} finally {
  rmSync(training, { recursive: true, force: true })
}
process.stdout.write(`built ${outdir}/dsh-lens.cjs\n`)
