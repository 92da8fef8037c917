/**
 * Who may talk to the companion server: a loopback-ish Host header (defeats DNS rebinding), an Origin that is
 * the server's own when a browser sends one (defeats cross-site pages), and the random token on every stream
 * connection, compared in constant time.
 */

import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { PROTOCOL, TOKEN_SUBPROTOCOL_PREFIX } from '../../live/protocol.ts'

export interface TrustPolicy {
  readonly token: string
  /** The port the server listens on: Origins must name it. */
  readonly port: number
  /** Extra host names accepted besides loopback (the explicit --host). */
  readonly extraHosts: readonly string[]
  /** Extra exact origins accepted (e.g. a Vite dev server), from --allow-origin. */
  readonly extraOrigins: readonly string[]
}

export type Verdict = { readonly ok: true } | { readonly ok: false; readonly status: 400 | 401 | 403; readonly message: string }

const OK: Verdict = { ok: true }

/** 32 random bytes, base64url: valid in a URL query and as a subprotocol token. */
export function newToken(): string {
  return randomBytes(32).toString('base64url')
}

export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '')
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h)
}

/** Host header → hostname, or undefined unless it is exactly `name[:port]` or `[v6][:port]` (no userinfo, path or junk). */
function hostnameOf(hostHeader: string): string | undefined {
  const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(?::\d{1,5})?$/.exec(hostHeader)
  return match?.[1]
}

export function checkHost(req: IncomingMessage, policy: TrustPolicy): Verdict {
  const header = req.headers.host
  if (header === undefined || header === '') return { ok: false, status: 400, message: 'missing Host header' }
  const hostname = hostnameOf(header)
  if (hostname === undefined) return { ok: false, status: 400, message: 'malformed Host header' }
  const bare = hostname.replace(/^\[|\]$/g, '')
  if (isLoopbackHost(hostname) || policy.extraHosts.includes(bare)) return OK
  return { ok: false, status: 403, message: `Host "${header}" is not a loopback name; refused (DNS rebinding guard)` }
}

/** Browsers always send Origin on WebSocket upgrades; when present it must be this server. */
export function checkOrigin(req: IncomingMessage, policy: TrustPolicy): Verdict {
  const origin = req.headers.origin
  if (origin === undefined) return OK
  if (policy.extraOrigins.includes(origin)) return OK
  let url: URL
  try {
    url = new URL(origin)
  } catch {
    return { ok: false, status: 403, message: `Origin "${origin}" is malformed; refused` }
  }
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port)
  const host = url.hostname.replace(/^\[|\]$/g, '')
  const own =
    url.protocol === 'http:' && port === policy.port && (isLoopbackHost(url.hostname) || policy.extraHosts.includes(host))
  return own ? OK : { ok: false, status: 403, message: `Origin "${origin}" is not this server's origin; refused` }
}

function sameSecret(a: string, b: string): boolean {
  // Hash first so the comparison is constant-time even when lengths differ.
  const ha = createHash('sha256').update(a).digest()
  const hb = createHash('sha256').update(b).digest()
  return timingSafeEqual(ha, hb)
}

/**
 * The sign-in cookie (Jupyter's pattern): the URL the CLI prints carries the token once; the server answers it with
 * this cookie and a redirect to the same URL without the token, so the page's address, its history and every link
 * copied from it carry none. The cookie is HttpOnly (no script reads it), SameSite=Strict (no other site's page
 * sends it), named after the port (cookies ignore ports: two servers must not overwrite each other's) and holds an
 * expiry and an HMAC of it keyed by the token, never the token itself: a server restarted with the same token
 * (DSH_LENS_TOKEN) accepts it, one with a fresh token does not.
 */
export const COOKIE_MAX_AGE_S = 7 * 24 * 60 * 60

export function cookieName(port: number): string {
  return `dsh-lens-${port}`
}

function cookieMac(token: string, expiresMs: number): string {
  return createHmac('sha256', token).update(`dsh-lens-cookie:${expiresMs}`).digest('base64url')
}

/** The cookie's value: `<expires ms>.<HMAC>`. */
export function cookieValue(token: string, now = Date.now(), maxAgeS = COOKIE_MAX_AGE_S): string {
  const expiresMs = now + maxAgeS * 1000
  return `${expiresMs}.${cookieMac(token, expiresMs)}`
}

/** The `Set-Cookie` header for a browser that presented the right token. */
export function signInCookie(port: number, token: string, now = Date.now()): string {
  return `${cookieName(port)}=${cookieValue(token, now)}; Max-Age=${COOKIE_MAX_AGE_S}; Path=/; HttpOnly; SameSite=Strict`
}

export type CookieVerdict = 'valid' | 'missing' | 'expired' | 'wrong'

export function checkCookieValue(value: string | undefined, token: string, now = Date.now()): CookieVerdict {
  if (value === undefined || value === '') return 'missing'
  const match = /^(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(value)
  if (match === null) return 'wrong'
  const expiresMs = Number(match[1])
  if (!sameSecret(match[2] as string, cookieMac(token, expiresMs))) return 'wrong'
  return expiresMs > now ? 'valid' : 'expired'
}

/** This server's cookie from the request's `Cookie` header, if any. */
export function presentedCookie(req: IncomingMessage, port: number): string | undefined {
  const name = cookieName(port)
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=')
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim()
  }
  return undefined
}

/** Whether the request carries a valid sign-in cookie of this server. */
export function signedIn(req: IncomingMessage, policy: TrustPolicy, now = Date.now()): boolean {
  return checkCookieValue(presentedCookie(req, policy.port), policy.token, now) === 'valid'
}

/** The token from `?token=` or an offered `dsh-viewer.token.<token>` subprotocol. */
export function presentedToken(req: IncomingMessage): string | undefined {
  const url = new URL(req.url ?? '/', 'http://localhost')
  const query = url.searchParams.get('token')
  if (query !== null) return query
  const offered = (req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim())
  const carrier = offered.find((p) => p.startsWith(TOKEN_SUBPROTOCOL_PREFIX))
  return carrier?.slice(TOKEN_SUBPROTOCOL_PREFIX.length)
}

/** Whether `presented` is this server's token (constant time). */
export function isToken(presented: string, policy: TrustPolicy): boolean {
  return sameSecret(presented, policy.token)
}

/** The token (query or subprotocol), else the sign-in cookie. */
export function checkToken(req: IncomingMessage, policy: TrustPolicy, now = Date.now()): Verdict {
  const token = presentedToken(req)
  if (token === undefined || token === '') {
    const cookie = checkCookieValue(presentedCookie(req, policy.port), policy.token, now)
    if (cookie === 'valid') return OK
    if (cookie === 'expired') return { ok: false, status: 401, message: 'sign-in expired: open the URL dsh-lens printed again' }
    if (cookie === 'wrong')
      return { ok: false, status: 401, message: 'sign-in from another server run: open the URL dsh-lens printed' }
    return { ok: false, status: 401, message: 'missing token: open the URL the server printed' }
  }
  if (!sameSecret(token, policy.token)) return { ok: false, status: 401, message: 'wrong token: open the URL the server printed' }
  return OK
}

/** All checks for a `/v1/stream` upgrade, in the order that leaks least. */
export function checkStreamUpgrade(req: IncomingMessage, policy: TrustPolicy): Verdict {
  for (const check of [checkHost, checkOrigin, checkToken]) {
    const verdict = check(req, policy)
    if (!verdict.ok) return verdict
  }
  return OK
}

/** The subprotocol to select: ours when offered (never echo the token carrier back). */
export function selectProtocol(protocols: Set<string>): string | false {
  return protocols.has(PROTOCOL) ? PROTOCOL : false
}
