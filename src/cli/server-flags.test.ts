/** `serve` and `open` read their shared flags one way: the same values, the same error texts. */

import { describe, expect, it } from 'vitest'
import { parseOpenArgs } from './open-command.ts'
import { parseServeArgs } from './serve-command.ts'

const commands = [
  ['serve', parseServeArgs],
  ['open', parseOpenArgs],
] as const

describe.each(commands)('%s', (_name, parse) => {
  it('reads --port, --host, --dist and --dsh [URL] wherever they stand among its own words', () => {
    expect(parse(['--port', '4200', '--host', '::1', '--dist', 'build', '--dsh', 'http://localhost:4000', 'x'])).toMatchObject({
      port: 4200,
      host: '::1',
      distDir: 'build',
      dsh: 'http://localhost:4000',
    })
    // --dsh without a URL takes the default and leaves the next word to the command.
    expect(parse(['--dsh', 'x'])).toMatchObject({ dsh: 'http://127.0.0.1:3080', host: '127.0.0.1', distDir: undefined })
  })

  it('refuses a bad shared flag with the same sentence', () => {
    expect(() => parse(['--port'])).toThrow('--port needs a value')
    expect(() => parse(['--host', '--port', '1'])).toThrow('--host needs a value')
    expect(() => parse(['--port', '70000'])).toThrow('--port takes an integer 0-65535, got "70000"')
    expect(() => parse(['--port', '12ab'])).toThrow('--port takes an integer 0-65535, got "12ab"')
    expect(() => parse(['--dsh', 'ftp://example.com'])).toThrow('--dsh takes an http:// or https:// URL, got "ftp://example.com"')
  })
})

it('each keeps its own default port: serve a free one (0), open its fixed one with fallback (null)', () => {
  expect(parseServeArgs([]).port).toBe(0)
  expect(parseOpenArgs([]).port).toBeNull()
})
