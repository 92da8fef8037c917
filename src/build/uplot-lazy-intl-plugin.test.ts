import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { lazyUplotIntl, uplotLazyIntlPlugin } from './uplot-lazy-intl-plugin.ts'

const require = createRequire(import.meta.url)
const uplotPath = require.resolve('uplot/dist/uPlot.esm.js')
const source = readFileSync(uplotPath, 'utf8')

describe('uplot-lazy-intl', () => {
  it('leaves no Intl object made at uPlot module evaluation', () => {
    const out = lazyUplotIntl(source)
    // Every remaining `new Intl.` sits inside a function body (the lazy getters): none at the start of a statement.
    expect(out).not.toMatch(/^const \w+ = new Intl\./m)
    expect(out).toContain('numFormatter ??= new Intl.NumberFormat')
    expect(out).toContain('tz == localTz()')
  })

  it('changes nothing uPlot computes: number format and time zones, patched against the original', async () => {
    type Uplot = { default: { fmtNum: (n: number) => string; tzDate: (d: Date, tz: string) => Date } }
    const load = async (code: string): Promise<Uplot['default']> =>
      ((await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`)) as Uplot).default
    const [patched, original] = await Promise.all([load(lazyUplotIntl(source)), load(source)])
    for (const n of [0, -1.5, 1234567.891, 1e21]) expect(patched.fmtNum(n)).toBe(original.fmtNum(n))
    const when = new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678))
    const local = Intl.DateTimeFormat().resolvedOptions().timeZone
    for (const tz of [local, 'UTC', 'Asia/Tokyo', 'America/New_York']) {
      expect(patched.tzDate(when, tz).getTime()).toBe(original.tzDate(when, tz).getTime())
    }
  })

  it('fails the build when uPlot no longer holds the patched lines', () => {
    expect(() => lazyUplotIntl(source.replace('const localTz =', 'const localTimeZone ='))).toThrow(/uPlot's source changed/)
  })

  it('transforms only uPlot', () => {
    const plugin = uplotLazyIntlPlugin() as unknown as { transform: (code: string, id: string) => unknown }
    expect(plugin.transform('const x = 1', '/app/src/main.tsx')).toBeNull()
    expect(plugin.transform(source, uplotPath)).toMatchObject({ code: lazyUplotIntl(source) })
  })
})
