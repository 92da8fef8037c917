/**
 * The lint fences bite: ESLint, run with the repository's own config on snippets placed in the tree, refuses an import
 * a row of docs/architecture.md does not allow (every layer, every room), allows the ones it does, and refuses a
 * component that reads the store's client instead of asking through a store action or the one road's hooks.
 */

import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { ESLint } from 'eslint'
import { beforeAll, describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '..', '..')

interface Fence {
  readonly may: readonly string[] | '*'
}
interface Config {
  readonly LAYERS: Readonly<Record<string, Fence>>
  readonly ROOMS: Readonly<Record<string, Readonly<Record<string, readonly string[] | '*'>>>>
  readonly ONE_ROAD_FILE: string
}

let config: Config
let eslint: ESLint
beforeAll(async () => {
  config = (await import(pathToFileURL(join(ROOT, 'eslint.config.js')).href)) as Config
  eslint = new ESLint({ cwd: ROOT })
})

/** The messages of one rule for `code` placed at `file` (a path in the tree; the file need not exist). */
async function messages(file: string, code: string, rule: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, file) })
  return (result?.messages ?? []).filter((m) => m.ruleId === rule).map((m) => m.message)
}

describe('the layer fences', () => {
  it('every layer refuses a layer its row does not list and takes one it does', async () => {
    const layers = Object.keys(config.LAYERS)
    let refused = 0
    for (const [layer, fence] of Object.entries(config.LAYERS)) {
      const file = `src/${layer}/fence-probe.ts`
      const allowed = fence.may === '*' ? layers.filter((l) => l !== layer) : fence.may
      const barred = fence.may === '*' ? [] : layers.filter((l) => l !== layer && !fence.may.includes(l))
      for (const target of barred) {
        const found = await messages(file, `import { x } from '../${target}/probe.ts'\nexport { x }\n`, 'lens/fences')
        expect({ layer, target, found: found.length }).toStrictEqual({ layer, target, found: 1 })
        refused++
      }
      for (const target of allowed) {
        expect(await messages(file, `import { x } from '../${target}/probe.ts'\nexport { x }\n`, 'lens/fences')).toStrictEqual([])
      }
    }
    // Not a fence that allows everything: most pairs are refused.
    expect(refused).toBeGreaterThan(100)
  })

  it("refuses type imports and import() alike, and says the row's rule", async () => {
    const typeOnly = await messages(
      'src/core/probe.ts',
      "import type { X } from '../ui/x.ts'\nexport type { X }\n",
      'lens/fences',
    )
    expect(typeOnly).toStrictEqual(['src/core may import nothing else: the pure core imports nothing outside src/core'])
    const dynamic = await messages('src/view/probe.ts', "export const x = () => import('../worker/x.ts')\n", 'lens/fences')
    expect(dynamic).toHaveLength(1)
  })

  it('every room refuses a room of its layer it may not import', async () => {
    for (const [layer, rooms] of Object.entries(config.ROOMS)) {
      for (const [room, may] of Object.entries(rooms)) {
        const others = Object.keys(rooms).filter((r) => r !== room)
        for (const other of others) {
          const found = await messages(
            `src/${layer}/${room}/probe.ts`,
            `import { x } from '../${other}/x.ts'\nexport { x }\n`,
            'lens/fences',
          )
          const allowed = may === '*' || may.includes(other)
          expect({ layer, room, other, refused: found.length === 1 }).toStrictEqual({ layer, room, other, refused: !allowed })
        }
      }
    }
  })
})

describe('the one road from the UI to the worker', () => {
  const component = `import { useLensStoreApi } from '../../../store/lens-store-context.tsx'
export function Probe() {
  const store = useLensStoreApi()
  void store.client.query('index-of-seq', { seq: 1 })
  return null
}
`
  it('refuses a .client call in a component', async () => {
    const found = await messages('src/ui/panes/diagnostics/Probe.tsx', component, 'no-restricted-syntax')
    expect(found).toStrictEqual([
      `A component asks the worker through a store action or the hooks of ${config.ONE_ROAD_FILE}, never the store's client.`,
    ])
  })

  it('allows it in the one hook file only', async () => {
    const hook = `import type { LensStore } from '../../store/create-lens-store.ts'
export const ask = (store: LensStore) => store.client.query('index-of-seq', { seq: 1 })
`
    expect(await messages(config.ONE_ROAD_FILE, hook, 'no-restricted-syntax')).toStrictEqual([])
    expect(await messages('src/ui/shared/other-hook.ts', hook, 'no-restricted-syntax')).toHaveLength(1)
  })
})
