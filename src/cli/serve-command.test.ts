/** `dsh-lens serve`'s own words: paths, --demo, --allow-origin, and the default sessions root. */

import { describe, expect, test } from 'vitest'
import { defaultSessionsRoot, parseServeArgs, ServeUsageError } from './serve-command.ts'

describe('serve flags', () => {
  test('parses paths and flags; bad flags fail loudly', () => {
    expect(parseServeArgs(['a', '--port', '0', '--host', '::1', 'b', '--demo'])).toMatchObject({
      paths: ['a', 'b'],
      port: 0,
      host: '::1',
      demo: true,
    })
    expect(() => parseServeArgs(['--port', 'x'])).toThrow(ServeUsageError)
    expect(() => parseServeArgs(['--port'])).toThrow(/needs a value/)
    expect(() => parseServeArgs(['--bogus'])).toThrow(/unknown flag/)
    expect(() => parseServeArgs(['--allow-origin', 'evil'])).toThrow(ServeUsageError)
  })

  test('the default root is $DSH_HOME/sessions, or ~/.dsh/sessions when DSH_HOME is unset or blank', () => {
    expect(defaultSessionsRoot({ DSH_HOME: '/x/h' })).toBe('/x/h/sessions')
    expect(defaultSessionsRoot({ DSH_HOME: '  ' })).toMatch(/\/\.dsh\/sessions$/)
    expect(defaultSessionsRoot({})).toMatch(/\/\.dsh\/sessions$/)
  })
})
