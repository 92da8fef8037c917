import { describe, expect, it } from 'vitest'
import type { Diagnostic } from '../core/model/diagnostic.ts'
import { BUNDLE_HINT, noEventsError } from './no-events-error.ts'

const d = (code: Diagnostic['code'], message: string, severity: Diagnostic['severity'] = 'error'): Diagnostic => ({
  severity,
  code,
  line: 1,
  seq: null,
  message,
})

describe('the banner sentence for a load that read no event', () => {
  it('a file that is no log: the core sentence alone, capitalised', () => {
    expect(noEventsError([d('not-a-log', 'not a session log: this is a PNG image')])).toBe(
      'Not a session log: this is a PNG image',
    )
  })

  it('a ZIP archive: the sentence, then where a session bundle opens', () => {
    expect(noEventsError([d('not-a-log', 'not a session log: this is a ZIP archive')])).toBe(
      `Not a session log: this is a ZIP archive. ${BUNDLE_HINT}`,
    )
    expect(BUNDLE_HINT).toContain('Open sessions…')
  })

  it('otherwise the first error says why (not a warning before it), once', () => {
    expect(
      noEventsError([
        d('invalid-utf8', 'line 1 is not valid UTF-8', 'warning'),
        d('header-invalid-json', 'corrupt session log: header line is not valid JSON'),
      ]),
    ).toBe('No events could be read: corrupt session log: header line is not valid JSON')
    expect(noEventsError([d('header-missing', 'empty or header-less session log')])).toBe(
      'No events could be read: empty or header-less session log',
    )
    expect(noEventsError([])).toBe('No events could be read.')
  })
})
