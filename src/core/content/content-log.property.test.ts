/**
 * The content log on generated logs (packed as the harness packs them, pushed in random slices with an
 * extraction after each, as a running session's log grows): the documents, once the earlier ones are updated with
 * what each later call says a new replacement shadowed, are exactly those of one extraction of the whole log; and
 * every document's class is the harness's (`foldSurface` of the whole log: its nodes current, every replacement's
 * shadowedSeqs shadowed, the rest log-only: `buildSessionEventSearchDocuments`'s rule), with the replacement that
 * shadowed it. The harness's own extraction on real logs: src/server/content-index/harness-agreement.test.ts.
 */

import fc from 'fast-check'
import { foldSurface } from '@deepseek-ai/dsh-session/surface'
import { describe, expect, it } from 'vitest'
import { validLogArb } from '../../test-support/log-arbitrary.ts'
import { packRecords, toJsonlBytes } from '../../test-support/log-builder.ts'
import type { ContentDocument } from './content-document.ts'
import { ContentLog } from './content-log.ts'
import { eventText } from './event-text.ts'

type OracleEvent = Parameters<typeof foldSurface>[0][number]

const HEADER = '{"type":"session","version":0,"id":"s","createdAt":1,"delegationDepth":0}\n'

describe('ContentLog on generated logs', () => {
  it('gives the same documents grown in slices as read whole, classified as the harness classifies', () => {
    fc.assert(
      fc.property(validLogArb, fc.integer({ min: 1, max: 4096 }), (events, slice) => {
        const bytes = new Uint8Array([...new TextEncoder().encode(HEADER), ...toJsonlBytes(packRecords(events))])
        const whole = new ContentLog()
        whole.push(bytes)
        whole.finish()
        const once = whole.next()
        expect(once.reclassified).toStrictEqual([])

        const log = new ContentLog()
        const grown = new Map<number, ContentDocument>()
        const take = (): void => {
          const { documents, reclassified } = log.next()
          for (const r of reclassified) {
            const d = grown.get(r.seq)
            if (d !== undefined) grown.set(r.seq, { ...d, surface: r.surface, shadowedBy: r.shadowedBy })
          }
          for (const d of documents) grown.set(d.seq, d)
        }
        for (let at = 0; at < bytes.length; at += slice) {
          log.push(bytes.subarray(at, at + slice))
          take()
        }
        log.finish()
        take()
        expect([...grown.values()]).toStrictEqual(once.documents)

        // The harness's classification of the same events, and its text rule: chunks never, text events when non-empty.
        const folded = foldSurface(events as unknown as OracleEvent[])
        const expected = new Map<number, { surface: string; shadowedBy: number | null }>()
        for (const seq of folded.nodes) expected.set(seq, { surface: 'current', shadowedBy: null })
        for (const r of folded.replacements)
          for (const seq of r.shadowedSeqs) expected.set(seq, { surface: 'shadowed', shadowedBy: r.seq })
        const withText = events.filter((e) => eventText(e as never) !== '').map((e) => e['seq'])
        expect(once.documents.map((d) => d.seq)).toStrictEqual(withText)
        for (const d of once.documents) {
          expect({ surface: d.surface, shadowedBy: d.shadowedBy }).toStrictEqual(
            expected.get(d.seq) ?? { surface: 'log-only', shadowedBy: null },
          )
        }
      }),
      { numRuns: 300 },
    )
  })
})
