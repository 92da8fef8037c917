import { describe, expect, it } from 'vitest'
import { parseServeArgs, ServeUsageError } from './serve-command.ts'
import { parseUpstreamUrl, remoteUpstreamWarning } from './dsh-flag.ts'

describe('--dsh [URL]', () => {
  it('defaults to the harness default address; the URL is optional, a following PATH stays a PATH', () => {
    expect(parseServeArgs(['--dsh'])).toMatchObject({ dsh: 'http://127.0.0.1:3080', paths: [] })
    expect(parseServeArgs(['--dsh', '/some/root'])).toMatchObject({ dsh: 'http://127.0.0.1:3080', paths: ['/some/root'] })
    expect(parseServeArgs(['--dsh', 'http://localhost:4000', 'p'])).toMatchObject({ dsh: 'http://localhost:4000', paths: ['p'] })
    expect(parseServeArgs([]).dsh).toBeUndefined()
    expect(() => parseServeArgs(['--dsh', 'ftp://127.0.0.1/'])).toThrow(ServeUsageError)
  })

  it('loopback unless another host is named; no credentials, query or fragment; a path prefix is a directory', () => {
    expect(parseUpstreamUrl()).toMatchObject({ ok: true, loopback: true })
    expect(parseUpstreamUrl('http://[::1]:3080')).toMatchObject({ ok: true, loopback: true })
    const remote = parseUpstreamUrl('http://build-box.lan:3080/dsh')
    expect(remote).toMatchObject({ ok: true, loopback: false })
    if (remote.ok) {
      expect(remote.url.href).toBe('http://build-box.lan:3080/dsh/')
      expect(remoteUpstreamWarning(remote.url)).toMatch(
        /^WARNING: --dsh names build-box\.lan:3080, not a loopback address.*unencrypted/,
      )
    }
    expect(parseUpstreamUrl('http://u:p@127.0.0.1:3080').ok).toBe(false)
    expect(parseUpstreamUrl('http://127.0.0.1:3080/?x=1').ok).toBe(false)
    expect(parseUpstreamUrl('not a url').ok).toBe(false)
  })
})
