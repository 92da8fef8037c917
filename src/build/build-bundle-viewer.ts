/**
 * `npm run build:bundle`: the viewer as one HTML template for offline bundles (`dsh-lens bundle`): every script,
 * chunk, worker and style inline, nothing fetched, so the file opens from `file://` with no server.
 *
 * 1. A Vite build of the app with the app's plugins (React, Tailwind, the lazy uPlot Intl) but every dynamic import
 *    inlined into one page module (the graph, the chart and the Request view included: a `file://` page cannot
 *    import a module file, Chromium refuses module scripts from an opaque origin) and each worker one file;
 *    `experimental.renderBuiltUrl` writes each worker's URL as `__dshLensWorkerUrl("<file>")` (Vite's documented
 *    hook for built URLs), and each worker starts as a classic worker (`classicWorkers`). vite-plugin-singlefile does the HTML half of this, but neither workers nor a CSP by hash:
 *    the inlining below is thirty lines.
 * 2. The template: the CSS in a `<style>`, each worker's code in a `<script type="text/x-dsh-lens-worker">` data block
 *    (text, not base64: a third smaller), a prelude in the page module that turns a worker's block into a `blob:`
 *    URL once, and the bundle's policy (bundle-policy.ts) naming the module and the style by hash. The data slot
 *    (`BUNDLE_DATA_SLOT`) is where `dsh-lens bundle` writes the session.
 */

import react from '@vitejs/plugin-react'
import tailwindcss from '@tailwindcss/vite'
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'vite'
import { BUNDLE_DATA_SLOT, BUNDLE_TEMPLATE_FILE } from '../core/export/offline-bundle.ts'
import { bundlePolicy } from './bundle-policy.ts'
import { uplotLazyIntlPlugin } from './uplot-lazy-intl-plugin.ts'

const root = fileURLToPath(new URL('../../', import.meta.url))
const at = process.argv.indexOf('--outdir')
const outdir = at === -1 ? join(root, 'dist-bundle') : (process.argv[at + 1] as string)

const WORKER_FILE = /\.worker-[^/]*\.js$/

/**
 * Text inside a `<script>` element ends at `</script`, and `<!--` can change how the parser reads what follows: both
 * are written `\x3C…`, the same character in every JavaScript string, template and regex (minified code has `<` in
 * no other place a `</script` or `<!--` could stand).
 */
export function scriptText(code: string): string {
  return code.replace(/<(\/script|!--)/gi, '\\x3C$1')
}

/** Turns a worker's data block into a `blob:` URL, once per worker; evaluated before the viewer's first line. */
const PRELUDE = `globalThis.__dshLensWorkerUrl??=(()=>{const urls=new Map();return(file)=>{let url=urls.get(file);if(url===undefined){const block=document.querySelector('script[type="text/x-dsh-lens-worker"][data-file="'+file+'"]');if(block===null)throw new Error("dsh-lens bundle: no worker "+file);url=URL.createObjectURL(new Blob([block.textContent],{type:"text/javascript"}));urls.set(file,url)}return url}})();\n`

/**
 * The viewer starts its workers as modules (`{type:'module'}`); a `file://` page's module worker cannot load from a
 * `blob:` URL (Chromium fetches a module worker in CORS mode, and an opaque origin's blob answers nothing), a classic
 * one can. The bundle's workers are single files with no `import` (built as `iife`), so each construction is turned
 * classic here; exactly one per worker, or the build fails (the app's code changed under this rewrite).
 */
export function classicWorkers(code: string, workers: number): string {
  let count = 0
  const out = code.replace(
    /(new Worker\(new URL\(__dshLensWorkerUrl\([^)]*\),[^)]*\),\{type:)(["'`])module\2/g,
    (_, head: string, q: string) => {
      count++
      return `${head}${q}classic${q}`
    },
  )
  if (count !== workers) throw new Error(`expected ${workers} worker constructions to make classic, found ${count}`)
  return out
}

async function main(): Promise<void> {
  const stage = join(outdir, 'stage')
  rmSync(outdir, { recursive: true, force: true })
  await build({
    configFile: false,
    root,
    mode: 'production',
    logLevel: 'warn',
    publicDir: false,
    plugins: [react(), tailwindcss(), uplotLazyIntlPlugin()],
    build: {
      target: 'es2022',
      outDir: stage,
      emptyOutDir: true,
      sourcemap: false,
      modulePreload: false,
      cssCodeSplit: false,
      assetsInlineLimit: Number.MAX_SAFE_INTEGER,
      chunkSizeWarningLimit: 4096,
      rollupOptions: { output: { inlineDynamicImports: true } },
    },
    worker: { format: 'iife', rollupOptions: { output: { inlineDynamicImports: true } } },
    experimental: {
      renderBuiltUrl(filename, { hostType }) {
        if (hostType === 'js' && WORKER_FILE.test(filename)) return { runtime: `__dshLensWorkerUrl(${JSON.stringify(filename)})` }
        return undefined
      },
    },
  })
  const assets = join(stage, 'assets')
  const files = readdirSync(assets)
  const read = (name: string): string => readFileSync(join(assets, name), 'utf8')
  const entries = files.filter((f) => f.endsWith('.js') && !WORKER_FILE.test(f))
  const styles = files.filter((f) => f.endsWith('.css'))
  if (entries.length !== 1 || styles.length !== 1)
    throw new Error(`expected one page module and one style, got ${files.join(', ')}`)
  const module = scriptText(PRELUDE + classicWorkers(read(entries[0] as string), files.filter((f) => WORKER_FILE.test(f)).length))
  const style = read(styles[0] as string).replace(/<\/style/gi, '<\\/style')
  const workers = files
    .filter((f) => WORKER_FILE.test(f))
    .map((f) => `<script type="text/x-dsh-lens-worker" data-file="assets/${f}">${scriptText(read(f))}</script>`)
  const html = [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="UTF-8" />',
    `<meta http-equiv="Content-Security-Policy" content="${bundlePolicy(module, style)}" />`,
    '<meta name="viewport" content="width=device-width, initial-scale=1.0" />',
    '<meta name="dsh-lens-bundle" content="1" />',
    '<title>dsh-lens</title>',
    `<style>${style}</style>`,
    '</head>',
    '<body>',
    '<div id="root"></div>',
    BUNDLE_DATA_SLOT,
    ...workers,
    `<script type="module">${module}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n')
  mkdirSync(outdir, { recursive: true })
  writeFileSync(join(outdir, BUNDLE_TEMPLATE_FILE), html)
  rmSync(stage, { recursive: true, force: true })
  process.stderr.write(`dsh-lens: wrote ${join(outdir, BUNDLE_TEMPLATE_FILE)} (${(html.length / 1024).toFixed(0)} KB)\n`)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main()
