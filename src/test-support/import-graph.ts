/**
 * The imports of the source tree, read from the files themselves with TypeScript's parser (so an import written inside
 * a string or a comment is none): every `import … from`, `export … from` and `import()` of every TypeScript file below
 * a folder, with the file it resolves to (relative specifiers) or the package it names, and whether it is type-only
 * (erased: it loads nothing). For the architecture tests: fences and import loops.
 */

import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import ts from 'typescript'

export interface ImportEdge {
  /** The specifier as written. */
  readonly spec: string
  /** The absolute path it resolves to, for a relative specifier; undefined for a package. */
  readonly target: string | undefined
  /** `import type` / `export type`: erased, loads nothing. */
  readonly typeOnly: boolean
}

/** Every .ts/.tsx file below `dir` (absolute paths), tests included when `tests`. */
export function sourceFiles(dir: string, { tests = false } = {}): string[] {
  const out: string[] = []
  const walk = (at: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (/\.tsx?$/.test(entry.name) && (tests || !/\.test\.tsx?$/.test(entry.name))) out.push(path)
    }
  }
  walk(dir)
  return out.sort()
}

const parsed = new Map<string, ImportEdge[]>()

export function importsOf(file: string): ImportEdge[] {
  const known = parsed.get(file)
  if (known !== undefined) return known
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.TSX)
  const edges: ImportEdge[] = []
  const add = (specifier: ts.Expression | undefined, typeOnly: boolean): void => {
    if (specifier === undefined || !ts.isStringLiteralLike(specifier)) return
    const spec = specifier.text
    edges.push({ spec, target: spec.startsWith('.') ? resolve(dirname(file), spec) : undefined, typeOnly })
  }
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) add(node.moduleSpecifier, node.importClause?.isTypeOnly === true)
    else if (ts.isExportDeclaration(node)) add(node.moduleSpecifier, node.isTypeOnly)
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node.arguments[0], false)
    ts.forEachChild(node, visit)
  }
  visit(source)
  parsed.set(file, edges)
  return edges
}

/**
 * The import loops among `files` (strongly connected components of more than one file, or a file importing itself),
 * each as its files in a stable order. `withTypes`: type-only imports count too.
 */
export function importLoops(files: readonly string[], withTypes: boolean): string[][] {
  const known = new Set(files)
  const edges = new Map(
    files.map((f) => [
      f,
      importsOf(f)
        .filter((e) => e.target !== undefined && known.has(e.target) && (withTypes || !e.typeOnly))
        .map((e) => e.target as string),
    ]),
  )
  // Tarjan's strongly connected components.
  let counter = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const loops: string[][] = []
  const visit = (v: string): void => {
    index.set(v, counter)
    low.set(v, counter++)
    stack.push(v)
    onStack.add(v)
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number))
    }
    if (low.get(v) !== index.get(v)) return
    const component: string[] = []
    for (let w = stack.pop(); w !== undefined; w = w === v ? undefined : stack.pop()) {
      onStack.delete(w)
      component.push(w)
    }
    if (component.length > 1 || (edges.get(v) ?? []).includes(v)) loops.push(component.sort())
  }
  for (const f of files) if (!index.has(f)) visit(f)
  return loops.sort((a, b) => (a[0] as string).localeCompare(b[0] as string))
}
