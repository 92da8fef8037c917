/**
 * The query's rules (one literal phrase; a trailing `*` a prefix; a query that cannot match gets a sentence), the
 * snippet around the highlighted match, and the event text on malformed events (nothing, never a throw).
 */

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { contentSnippet } from './content-snippet.ts'
import { HIGHLIGHT_END as E, HIGHLIGHT_START as S, parseContentQuery } from './content-query.ts'
import { eventText } from './event-text.ts'

describe('parseContentQuery', () => {
  it('makes one quoted FTS5 phrase of the text, whitespace collapsed, operators and quotes as data', () => {
    expect(parseContentQuery('  csv\n\tbug ')).toStrictEqual({
      ok: true,
      query: { text: 'csv bug', prefix: false, match: '"csv bug"' },
    })
    expect(parseContentQuery('a "b" OR NEAR(c)')).toStrictEqual({
      ok: true,
      query: { text: 'a "b" OR NEAR(c)', prefix: false, match: '"a ""b"" OR NEAR(c)"' },
    })
  })

  it('reads a trailing * (or the option) as a prefix of the last word', () => {
    expect(parseContentQuery('migrat**')).toStrictEqual({
      ok: true,
      query: { text: 'migrat', prefix: true, match: '"migrat" *' },
    })
    expect(parseContentQuery('run migrat', { prefix: true })).toStrictEqual({
      ok: true,
      query: { text: 'run migrat', prefix: true, match: '"run migrat" *' },
    })
  })

  it('refuses in one sentence what cannot match: empty, NUL, no word', () => {
    expect(parseContentQuery(' \n ')).toStrictEqual({
      ok: false,
      message: 'the query is empty: give a word or a phrase to search for',
    })
    expect(parseContentQuery('a\0b')).toStrictEqual({
      ok: false,
      message: 'the query holds a NUL character: search for text without it',
    })
    for (const q of ['*', '()', '"" -', '\uFDD0']) {
      const parsed = parseContentQuery(q)
      expect(parsed.ok).toBe(false)
      if (!parsed.ok) expect(parsed.message).toContain('has no word in it')
    }
  })

  it('never builds an expression that could escape its quotes', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.boolean(), (text, prefix) => {
        const parsed = parseContentQuery(text, { prefix })
        if (!parsed.ok) return
        const body = parsed.query.match.replace(/ \*$/, '')
        expect(body.startsWith('"') && body.endsWith('"')).toBe(true)
        expect(body.slice(1, -1).replaceAll('""', '')).not.toContain('"')
      }),
    )
  })
})

describe('contentSnippet', () => {
  it('cuts one line around the first match and says where the match is', () => {
    const long = `${'x '.repeat(100)}${S}needle${E} and more\nlines ${S}needle${E} ${'y '.repeat(100)}`
    const snippet = contentSnippet(long)
    expect(snippet.text.slice(snippet.highlight[0], snippet.highlight[1])).toBe('needle')
    expect(snippet.text).not.toMatch(/[\n\uFDD0\uFDD1]/)
    expect(snippet.text.startsWith('…') && snippet.text.endsWith('…')).toBe(true)
    expect(snippet.text.length).toBeLessThan(140)
  })
})

describe('eventText on malformed events', () => {
  it('gives nothing for any shape it does not know, and never throws', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('user/message', 'assistant/message', 'tool/call', 'tool/result', 'todo/write', 'turn/end', 'x'),
        fc.anything(),
        (type, data) => {
          expect(typeof eventText({ type, seq: 0, time: 0, data })).toBe('string')
        },
      ),
    )
    expect(eventText({ type: 'todo/write', seq: 0, time: 0, data: { todos: [null, { content: ' a ', status: 'done' }] } })).toBe(
      'done\na',
    )
    expect(
      eventText({ type: 'turn/end', seq: 0, time: 0, data: { reason: { kind: 'error', error: { message: ' boom ' } } } }),
    ).toBe('error\nboom')
    expect(eventText({ type: 'turn/end', seq: 0, time: 0, data: { reason: { kind: 'completed' } } })).toBe('')
  })
})
