/**
 * Tool output as the harness's tools print it, computed from the demo workspace's file texts:
 * `read` (numbered lines in the harness's envelope), `grep` (path:line:text) and `git diff`
 * (a real unified diff of the before/after texts).
 */

import { WORKSPACE } from './project-files.ts'

/** The `read` tool's result: the harness's `<path>/<type>/<content>` envelope with numbered lines. */
export function readResult(path: string, text: string): string {
  const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n')
  const numbered = lines.map((l, i) => `${i + 1}: ${l}`).join('\n')
  return `<path>${WORKSPACE}/${path}</path>\n<type>file</type>\n<content>\n${numbered}\n\n(End of file - total ${lines.length} lines)\n</content>`
}

export function editResult(path: string): string {
  return `The file ${WORKSPACE}/${path} has been updated successfully.`
}

/** `grep -n` over some files: every line matching the pattern, as path:line:text. */
export function grepResult(pattern: RegExp, files: readonly (readonly [string, string])[]): string {
  const hits: string[] = []
  for (const [path, text] of files) {
    text.split('\n').forEach((line, i) => {
      if (pattern.test(line)) hits.push(`${path}:${i + 1}:${line}`)
    })
  }
  return hits.join('\n')
}

type Op = { kind: ' ' | '-' | '+'; line: string; a: number; b: number }

/** Line diff by longest common subsequence (the demo's files are a few dozen lines). */
function diffLines(before: string[], after: string[]): Op[] {
  const n = before.length
  const m = after.length
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0))
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      const row = lcs[i] as number[]
      row[j] = before[i] === after[j] ? (lcs[i + 1]?.[j + 1] ?? 0) + 1 : Math.max(lcs[i + 1]?.[j] ?? 0, row[j + 1] ?? 0)
    }
  }
  const ops: Op[] = []
  let i = 0
  let j = 0
  while (i < n || j < m) {
    if (i < n && j < m && before[i] === after[j]) ops.push({ kind: ' ', line: before[i++] as string, a: i, b: ++j })
    else if (j < m && (i >= n || (lcs[i]?.[j + 1] ?? 0) >= (lcs[i + 1]?.[j] ?? 0)))
      ops.push({ kind: '+', line: after[j++] as string, a: i, b: j })
    else ops.push({ kind: '-', line: before[i++] as string, a: i, b: j })
  }
  return ops
}

/** One file's section of `git diff`: header and hunks with three lines of context. */
export function unifiedDiff(path: string, before: string, after: string, index: string): string {
  const split = (t: string): string[] => (t.endsWith('\n') ? t.slice(0, -1) : t).split('\n')
  const ops = diffLines(split(before), split(after))
  const changed = ops.map((op, k) => (op.kind === ' ' ? -1 : k)).filter((k) => k >= 0)
  const hunks: string[] = []
  let k = 0
  while (k < changed.length) {
    const first = changed[k] as number
    let last = first
    while (k + 1 < changed.length && (changed[k + 1] as number) - last <= 6) last = changed[++k] as number
    k++
    const from = Math.max(0, first - 3)
    const to = Math.min(ops.length - 1, last + 3)
    const slice = ops.slice(from, to + 1)
    // Old and new start lines: count the lines of each side before the hunk.
    const before_ = ops.slice(0, from)
    const aStart = before_.filter((o) => o.kind !== '+').length + 1
    const bStart = before_.filter((o) => o.kind !== '-').length + 1
    const aLen = slice.filter((o) => o.kind !== '+').length
    const bLen = slice.filter((o) => o.kind !== '-').length
    hunks.push(`@@ -${aStart},${aLen} +${bStart},${bLen} @@`, ...slice.map((o) => `${o.kind}${o.line}`))
  }
  return [`diff --git a/${path} b/${path}`, `index ${index} 100644`, `--- a/${path}`, `+++ b/${path}`, ...hunks].join('\n')
}

/** `git diff --stat` lines for the same changes. */
export function diffStat(files: readonly (readonly [string, string, string])[]): string {
  const rows = files.map(([path, before, after]) => {
    const ops = diffLines(before.split('\n'), after.split('\n'))
    const plus = ops.filter((o) => o.kind === '+').length
    const minus = ops.filter((o) => o.kind === '-').length
    return { path, plus, minus }
  })
  const width = Math.max(...rows.map((r) => r.path.length))
  const lines = rows.map(
    (r) => ` ${r.path.padEnd(width)} | ${String(r.plus + r.minus).padStart(2)} ${'+'.repeat(r.plus)}${'-'.repeat(r.minus)}`,
  )
  const plus = rows.reduce((s, r) => s + r.plus, 0)
  const minus = rows.reduce((s, r) => s + r.minus, 0)
  const parts = [`${rows.length} file${rows.length === 1 ? '' : 's'} changed`, `${plus} insertion${plus === 1 ? '' : 's'}(+)`]
  if (minus > 0) parts.push(`${minus} deletion${minus === 1 ? '' : 's'}(-)`)
  lines.push(` ${parts.join(', ')}`)
  return lines.join('\n')
}
