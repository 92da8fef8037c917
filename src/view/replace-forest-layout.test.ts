/** The linear forest layout for big replace graphs: every node placed once, no two boxes overlap, parents above. */

import { describe, expect, it } from 'vitest'
import { generatePreset, toJsonl } from '../generate/index.ts'
import { OpenLog } from './open-log.ts'
import type { ReplacementInfo } from '../protocol/log-summary.ts'
import { layoutForest, nestingParents } from './replace-forest-layout.ts'
import { FOREST_LAYOUT_ABOVE, layoutReplacements } from './replace-layout.ts'
import { REPLACE_NODE_SIZE } from '../protocol/replace-layout.ts'

const { width: W, height: H } = REPLACE_NODE_SIZE

function checkLayout(replacements: readonly ReplacementInfo[]): void {
  const layout = layoutForest(replacements, REPLACE_NODE_SIZE)
  expect(layout.count).toBe(replacements.length)
  const bySeq = new Map(replacements.map((r, k) => [r.seq, k]))
  // No two boxes overlap: sort by row, then sweep each row by x.
  const order = Array.from({ length: layout.count }, (_, k) => k).sort(
    (a, b) => (layout.y[a] as number) - (layout.y[b] as number) || (layout.x[a] as number) - (layout.x[b] as number),
  )
  for (let i = 1; i < order.length; i++) {
    const a = order[i - 1] as number
    const b = order[i] as number
    expect(Number.isFinite(layout.x[b]) && Number.isFinite(layout.y[b])).toBe(true)
    if (layout.y[a] === layout.y[b]) expect(layout.x[b] as number).toBeGreaterThanOrEqual((layout.x[a] as number) + W)
    else expect(layout.y[b] as number).toBeGreaterThanOrEqual((layout.y[a] as number) + H)
  }
  // Each nested replacement sits one rank below the replacement that swallowed it.
  replacements.forEach((r, k) =>
    r.shadowedSeqs.forEach((s, i) => {
      if (r.shadowedIsReplacement[i] !== true) return
      const child = bySeq.get(s) as number
      expect(layout.y[child] as number).toBeGreaterThan(layout.y[k] as number)
    }),
  )
}

describe('layoutForest', () => {
  it('lays out the 5,000-replacement preset: every node once, no overlaps, nested below their parent, page-shaped', async () => {
    const session = await OpenLog.create()
    const bytes = new TextEncoder().encode(toJsonl(generatePreset('graph-5k')))
    session.begin('graph-5k.jsonl', bytes.length)
    session.push(bytes)
    session.finish()
    const summary = session.summary()
    expect(summary.replacements.length).toBe(5000)
    expect(summary.replacements.length).toBeGreaterThan(FOREST_LAYOUT_ABOVE)
    // Four summaries deep (a summary swallowing a summary ...), prunes under them.
    const depth = new Map<number, number>()
    for (const r of summary.replacements) {
      const inner = r.shadowedSeqs.map((s) => depth.get(s) ?? 0)
      depth.set(r.seq, (r.kind === 'summary' ? 1 : 0) + Math.max(0, ...inner))
    }
    expect(Math.max(...depth.values())).toBe(4)
    checkLayout(summary.replacements)
    // The nesting the large graph draws: each nested replacement's parent is the one whose shadowed seqs hold it,
    // and built in pieces (as interim summaries extend it) it is the same as built at once.
    const all = summary.replacements
    const parent = nestingParents(all)
    expect(summary.replaceLayout.parent).toStrictEqual(parent)
    let nested = 0
    all.forEach((r, k) =>
      r.shadowedSeqs.forEach((s, i) => {
        if (r.shadowedIsReplacement[i] !== true) return
        nested++
        expect(parent[all.findIndex((c) => c.seq === s)]).toBe(k)
      }),
    )
    expect(nested).toBeGreaterThan(100)
    expect([...parent].filter((p) => p >= 0).length).toBe(nested)
    let pieces = nestingParents(all.slice(0, 1234))
    pieces = nestingParents(all.slice(0, 3000), pieces)
    expect(nestingParents(all, pieces)).toStrictEqual(parent)
    const layout = summary.replaceLayout
    const width = Math.max(...layout.x) + W
    const height = Math.max(...layout.y) + H
    expect(width / height).toBeGreaterThan(0.5)
    expect(width / height).toBeLessThan(8)
  }, 400_000)

  it('is what layoutReplacements gives above the threshold, for a chain and for side-by-side prunes', () => {
    const prunes: ReplacementInfo[] = Array.from({ length: FOREST_LAYOUT_ABOVE + 5 }, (_, k) => ({
      seq: 2 * k + 1,
      index: 2 * k + 1,
      start: 2 * k,
      end: 2 * k,
      shadowedSeqs: [2 * k],
      sourceEventSeqs: [2 * k],
      kind: 'prune',
      compactionId: null,
      shadowedIsReplacement: [false],
    }))
    expect(layoutReplacements(prunes)).toStrictEqual(layoutForest(prunes, REPLACE_NODE_SIZE))
    checkLayout(prunes)
    const chain = prunes.map((p, k) => ({
      ...p,
      kind: 'summary' as const,
      shadowedSeqs: [k === 0 ? 0 : 2 * k - 1],
      shadowedIsReplacement: [k > 0],
    }))
    checkLayout(chain)
  })
})
