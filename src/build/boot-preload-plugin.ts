/**
 * Vite plugin: the built index.html modulepreloads the chunks the staged boot imports (src/ui/app/boot-app.ts:
 * React DOM, then the app). They are dynamic imports only so that each evaluates in a task of its own; they are
 * still the first screen, so the browser fetches them beside the entry instead of after it (no extra round trip),
 * and the bench's initial-JS figure, which reads these links, counts them.
 */

import type { Plugin } from 'vite'

/** Modules whose chunks the boot imports: matched against the chunk's facade module id. */
export const BOOT_CHUNK_FACADES: readonly RegExp[] = [
  /[/\\]react-dom[/\\]client\.js$/,
  /[/\\]src[/\\]ui[/\\]app[/\\]render-app\.tsx$/,
]

interface ChunkLike {
  readonly type: 'chunk'
  readonly fileName: string
  readonly facadeModuleId: string | null
  readonly imports: readonly string[]
}

/** The boot chunks and every chunk they import statically, in a stable order, without the entry's own files. */
export function bootPreloads(bundle: Record<string, { type: string }>, already: ReadonlySet<string>): string[] {
  const chunks = Object.values(bundle).filter((item): item is ChunkLike => item.type === 'chunk')
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]))
  const out: string[] = []
  const visit = (chunk: ChunkLike): void => {
    if (already.has(chunk.fileName) || out.includes(chunk.fileName)) return
    out.push(chunk.fileName)
    for (const file of chunk.imports) {
      const imported = byFile.get(file)
      if (imported !== undefined) visit(imported)
    }
  }
  for (const facade of BOOT_CHUNK_FACADES) {
    const chunk = chunks.find((c) => c.facadeModuleId !== null && facade.test(c.facadeModuleId))
    if (chunk === undefined) throw new Error(`boot-preload: no chunk for ${facade} (did boot-app.ts change?)`)
    visit(chunk)
  }
  return out
}

export function bootPreloadPlugin(): Plugin {
  return {
    name: 'dsh-lens-boot-preload',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (ctx.bundle === undefined) return html
        const already = new Set<string>()
        for (const match of html.matchAll(/(?:src|href)="\/?([^"]+\.js)"/g)) already.add(match[1] as string)
        return bootPreloads(ctx.bundle, already).map((file) => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` },
          injectTo: 'head' as const,
        }))
      },
    },
  }
}
