/**
 * `npm run build:cli`: the CLI as plain JavaScript, so `dsh-lens` starts without transpiling TypeScript
 * (tsx costs ~0.5 s per start). One ES-module entry, dist-cli/dsh-lens.mjs, with code splitting: the
 * commands most runs use (check, fold, request, search, slice) load only the core, while `serve` and
 * `generate-demo` pull in the server and the generator as separate chunks on demand.
 *
 * Every dependency is bundled (fzstd, xxhash-wasm, ws), so the built CLI runs from an `npm pack` tarball
 * or a bare checkout without node_modules. ws's optional native speed-ups stay external: ws loads them
 * inside a try and falls back to JavaScript.
 */

import { build } from 'esbuild'
import { rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../', import.meta.url))
// `--outdir DIR` builds elsewhere (the tests build into a temporary folder).
const at = process.argv.indexOf('--outdir')
const outdir = at === -1 ? `${root}dist-cli` : (process.argv[at + 1] as string)

rmSync(outdir, { recursive: true, force: true })
await build({
  absWorkingDir: root,
  // The zstd read-ahead worker (src/cli/zstd-prefetch.ts) is its own entry: a Worker starts from a file.
  entryPoints: { 'dsh-lens': 'src/cli/main.ts', 'zstd-frames-worker': 'src/cli/zstd-frames-worker.ts' },
  outdir,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['bufferutil', 'utf-8-validate'],
  // ws is CommonJS and calls require(); an ES-module bundle has none unless we make one.
  banner: {
    js: "import { createRequire as __lensCreateRequire } from 'node:module'; const require = __lensCreateRequire(import.meta.url);",
  },
  legalComments: 'none',
  sourcemap: 'linked',
  logLevel: 'warning',
  metafile: false,
})
process.stdout.write(`built ${outdir}/dsh-lens.mjs\n`)
