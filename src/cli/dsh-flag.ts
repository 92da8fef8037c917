/**
 * The `--dsh [URL]` value: which dsh web host the server attaches to. Default: the harness's own default address,
 * `http://127.0.0.1:3080`. A loopback host is the normal case; any other host is allowed only because it was named
 * explicitly, and the caller prints a warning (the session contents cross the network, unencrypted over http).
 */

import { isLoopbackHost } from '../server/http/request-trust.ts'

export const DEFAULT_DSH_URL = 'http://127.0.0.1:3080'

export type UpstreamUrl =
  { readonly ok: true; readonly url: URL; readonly loopback: boolean } | { readonly ok: false; readonly why: string }

export function parseUpstreamUrl(raw: string = DEFAULT_DSH_URL): UpstreamUrl {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return { ok: false, why: `--dsh takes a URL like ${DEFAULT_DSH_URL}, got "${raw}"` }
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { ok: false, why: `--dsh takes an http:// or https:// URL, got "${raw}"` }
  if (url.username !== '' || url.password !== '') return { ok: false, why: '--dsh takes no user name or password in the URL' }
  if (url.search !== '' || url.hash !== '') return { ok: false, why: '--dsh takes no query or fragment' }
  // The host's API lives at <base>api/...: keep any path prefix (a reverse proxy) as a directory.
  if (!url.pathname.endsWith('/')) url.pathname += '/'
  return { ok: true, url, loopback: isLoopbackHost(url.hostname) }
}

/**
 * `--dsh [URL]` at `argv[at]`, as `serve` and `open` read it: the URL is optional, so a following word that is not a
 * URL stays what it was (a PATH or SESSION-ID). `next` is the index of the last word taken.
 */
export function readDshFlag(argv: readonly string[], at: number): { readonly raw: string; readonly next: number } {
  const word = argv[at + 1]
  return word !== undefined && /^[a-z][a-z0-9+.-]*:\/\//i.test(word)
    ? { raw: word, next: at + 1 }
    : { raw: DEFAULT_DSH_URL, next: at }
}

/** The line `serve`/`open` print when `--dsh` names a host that is not this machine. */
export function remoteUpstreamWarning(url: URL): string {
  const plain = url.protocol === 'http:' ? ', unencrypted' : ''
  return `WARNING: --dsh names ${url.host}, not a loopback address: every session the host lists travels over the network${plain}, and that host must trust this machine (dsh web --trusted-host). Pages still only ever talk to this server.`
}
