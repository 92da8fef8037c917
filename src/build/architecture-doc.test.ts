/**
 * docs/architecture.md describes the tree, so it must stay the tree: its folder tables list exactly the folders of
 * src/, src/core/ and src/ui/, and the "may import" column of each fenced layer says what eslint.config.js's fence for
 * it allows. A folder added, renamed or removed, or a fence changed, fails here until the document says so.
 */

import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '..', '..')
const DOC = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8')
const LINT = readFileSync(join(ROOT, 'eslint.config.js'), 'utf8')

/** Rows of the document's tables whose first cell is a folder under `parent` (`src/`, `src/core/`): folder -> cells. */
function tableRows(parent: string): Map<string, string[]> {
  const rows = new Map<string, string[]>()
  const row = new RegExp(`^\\| \`${parent.replace(/\//g, '\\/')}([^/\`]+)/\` +\\|(.*)\\|\\s*$`)
  for (const line of DOC.split('\n')) {
    const match = row.exec(line)
    if (match !== null)
      rows.set(
        match[1] as string,
        (match[2] as string).split('|').map((cell) => cell.trim()),
      )
  }
  return rows
}

function folders(parent: string): string[] {
  return readdirSync(join(ROOT, parent), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
}

/** The fences eslint.config.js declares: `fence('view', ['core', 'protocol', 'platform'], ...)`. */
function fences(): Map<string, string[]> {
  const out = new Map<string, string[]>()
  for (const match of LINT.matchAll(/\bfence\(\s*'([\w-]+)',\s*\[([^\]]*)\]/g)) {
    const may = [...(match[2] as string).matchAll(/'([\w-]+)'/g)].map((m) => m[1] as string)
    out.set(match[1] as string, may.sort())
  }
  return out
}

describe('docs/architecture.md', () => {
  it('lists every folder of src/, and no other', () => {
    expect([...tableRows('src/').keys()].sort()).toStrictEqual(folders('src'))
  })

  it('lists every folder of src/core/ and src/ui/, and no other', () => {
    expect([...tableRows('src/core/').keys()].sort()).toStrictEqual(folders('src/core'))
    expect([...tableRows('src/ui/').keys()].sort()).toStrictEqual(folders('src/ui'))
  })

  it('says for each fenced layer what its lint fence allows', () => {
    const declared = fences()
    expect([...declared.keys()].sort()).toStrictEqual(['core', 'generate', 'platform', 'protocol', 'view', 'worker'])
    const rows = tableRows('src/')
    for (const [layer, may] of declared) {
      const cell = rows.get(layer)?.[1] ?? `(no row for src/${layer}/)`
      const documented = cell === 'nothing else' ? [] : cell.split(',').map((name) => name.trim())
      expect({ layer, may: documented.sort() }).toStrictEqual({ layer, may })
    }
  })

  it('fences only folders that exist', () => {
    const layers = /const LAYERS = \[([^\]]*)\]/.exec(LINT)?.[1] ?? ''
    const named = [...layers.matchAll(/'([\w-]+)'/g)].map((m) => m[1] as string)
    expect(named.length).toBeGreaterThan(5)
    expect(named.filter((name) => !folders('src').includes(name))).toStrictEqual([])
  })
})
