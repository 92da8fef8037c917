/**
 * The page's first screen (the entry and the chunks its staged boot imports) holds what the first screen runs,
 * never the worker's code. The lens worker's host (decoder,
 * fold, dagre layout, the xxhash WebAssembly bytes) once rode into it through `createInThreadClient`, a test helper
 * in worker-client.ts: tens of KB more JavaScript to evaluate while the page boots. This walks the static imports from
 * src/main.tsx, plus the dynamic `import()`s of the staged boot (boot-app.ts: React DOM and the app, fetched with the
 * entry); any other `import()` is a lazy chunk and `import type` is erased. It fails if a worker module is reached.
 * And the entry chunk itself (the static imports alone) holds no React: it starts the worker and the `?log=` fetch
 * before React DOM is evaluated, which a static import of a hook's module once undid.
 */

import { readFileSync } from 'node:fs'
import { dirname, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const SRC = resolve(import.meta.dirname, '..')
const ENTRY = resolve(SRC, 'main.tsx')
/** The module whose `import()`s are the first screen's own chunks (see boot-preload-plugin.ts). */
const BOOT = resolve(SRC, 'ui/app/boot-app.ts')

/** Worker-only modules and packages: what the entry must never import statically. */
const WORKER_ONLY = [
  /^worker\/lens-host\.ts$/,
  /^view\//,
  /^worker\/lens\.worker\.ts$/,
  /^core\/decode\//,
  /^core\/fold\//,
  /^core\/index\.ts$/,
  /^pkg:@dagrejs\//,
  /^pkg:xxhash-wasm$/,
  /^pkg:zstddec$/,
]

// `import … from 'x'`, `export … from 'x'`, `import 'x'`; not `import type`/`export type`, not `import('x')`.
const STATIC_IMPORT = /^\s*(?:import|export)\s+(?!type\s)(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]/gm
const DYNAMIC_IMPORT = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g

function staticGraph(entry: string, followBoot = true): Map<string, string> {
  const seen = new Map<string, string>() // module -> the module that imported it first
  const queue = [entry]
  seen.set(entry, '(entry)')
  while (queue.length > 0) {
    const file = queue.pop() as string
    const text = readFileSync(file, 'utf8')
    const imports = [...text.matchAll(STATIC_IMPORT), ...(followBoot && file === BOOT ? text.matchAll(DYNAMIC_IMPORT) : [])]
    for (const match of imports) {
      const spec = match[1] as string
      if (spec.endsWith('.css')) continue
      const target = spec.startsWith('.') ? resolve(dirname(file), spec) : `pkg:${spec}`
      if (seen.has(target)) continue
      seen.set(target, file)
      if (!target.startsWith('pkg:')) queue.push(target)
    }
  }
  return seen
}

const name = (module: string): string => (module.startsWith('pkg:') ? module : relative(SRC, module))

describe('the page entry', () => {
  const graph = staticGraph(ENTRY)

  it('reaches the app and the worker client (the walk follows real imports)', () => {
    const names = [...graph.keys()].map(name)
    expect(names).toContain('ui/app/App.tsx')
    expect(names).toContain('worker/worker-client.ts')
    expect(names).toContain('pkg:react-dom/client')
    expect(names.length).toBeGreaterThan(60)
  })

  it('never imports the worker host, the decoder, the fold or their packages', () => {
    const offenders = [...graph]
      .filter(([module]) => WORKER_ONLY.some((pattern) => pattern.test(name(module))))
      .map(([module, from]) => `${name(module)} (imported by ${name(from)})`)
    expect(offenders).toEqual([])
  })

  it('evaluates no React before the staged boot: the entry chunk reaches neither React nor React DOM', () => {
    const entryChunk = staticGraph(ENTRY, false)
    const names = [...entryChunk.keys()].map(name)
    expect(names).toContain('start-lens.ts')
    expect(names).toContain('worker/worker-client.ts')
    const offenders = [...entryChunk]
      .filter(([module]) => /^pkg:(react|react-dom)(\/|$)/.test(name(module)))
      .map(([module, from]) => `${name(module)} (imported by ${name(from)})`)
    expect(offenders).toEqual([])
  })
})
