import { describe, expect, it } from 'vitest'
import { bootPreloads } from './boot-preload-plugin.ts'

const chunk = (fileName: string, facadeModuleId: string | null, imports: string[] = []) => ({
  type: 'chunk',
  fileName,
  facadeModuleId,
  imports,
})

describe('bootPreloads', () => {
  const bundle = {
    'assets/index.js': chunk('assets/index.js', '/app/src/main.tsx', ['assets/shared.js']),
    'assets/shared.js': chunk('assets/shared.js', null),
    'assets/client.js': chunk('assets/client.js', '/app/node_modules/react-dom/client.js', ['assets/react.js']),
    'assets/react.js': chunk('assets/react.js', null),
    'assets/render-app.js': chunk('assets/render-app.js', '/app/src/ui/app/render-app.tsx', [
      'assets/react.js',
      'assets/shared.js',
    ]),
    'assets/graph.js': chunk('assets/graph.js', '/app/src/ui/panes/replace-graph/ReplaceGraphPane.tsx', ['assets/react.js']),
    'assets/index.css': { type: 'asset' },
  }

  it('lists the boot chunks and what they import, once each, without the entry or lazy panes', () => {
    expect(bootPreloads(bundle, new Set(['assets/index.js', 'assets/shared.js']))).toEqual([
      'assets/client.js',
      'assets/react.js',
      'assets/render-app.js',
    ])
  })

  it('fails the build when a boot module has no chunk of its own (boot-app.ts and the plugin disagree)', () => {
    const { ['assets/render-app.js']: _gone, ...rest } = bundle
    expect(() => bootPreloads(rest, new Set())).toThrow(/render-app/)
  })
})
