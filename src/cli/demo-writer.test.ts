// `serve --demo` writes the bundled demo live: the finished file is byte-for-byte the demo, and the
// subagent child sits beside it in the same project directory.
import { readFile, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { demoSessions, toJsonl } from '../generate/index.ts'
import { startDemoWriter } from './demo-writer.ts'

describe('startDemoWriter', () => {
  it('grows the demo session batch by batch until it is the whole demo, with its child beside it', async () => {
    const { parent, children } = demoSessions()
    const expected = toJsonl(parent)
    const writer = await startDemoWriter(0)
    try {
      const project = join(writer.root, '--demo--')
      const file = join(project, parent.header.id, 'session.jsonl')
      const sizes: number[] = []
      for (let i = 0; i < 2_000; i++) {
        const text = await readFile(file, 'utf8')
        sizes.push(text.length)
        if (text.length >= expected.length) break
        await new Promise((resolve) => setTimeout(resolve, 5))
      }
      expect(await readFile(file, 'utf8')).toBe(expected)
      // It grew: some reads saw a partial log.
      expect(sizes.some((n) => n < expected.length)).toBe(true)
      expect((await readdir(project)).sort()).toStrictEqual([parent.header.id, ...children.map((c) => c.header.id)].sort())
      for (const child of children) {
        expect(await readFile(join(project, child.header.id, 'session.jsonl'), 'utf8')).toBe(toJsonl(child))
      }
    } finally {
      await writer.stop()
    }
  })
})
