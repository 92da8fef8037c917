/**
 * The companion server's plain HTTP requests: the Host check first (DNS rebinding), `426` on the stream's path, the
 * printed URL's sign-in (`/?token=…`: a cookie, then the same page without the token), and the built viewer's static
 * files, index.html marked as served by `dsh-lens [open]` when it asked for the sessions home.
 */

import type { IncomingMessage, ServerResponse } from 'node:http'
import { STREAM_PATH } from '../../live/protocol.ts'
import type { PathGuard } from '../path-guard.ts'
import { checkHost, isToken, signInCookie, signedIn, type TrustPolicy } from './request-trust.ts'
import { serveStatic } from './static-files.ts'

export interface PageRequestOptions {
  readonly policy: TrustPolicy
  /** Mark index.html so the page opens the sessions home (`dsh-lens [open]`). */
  readonly sessionsHome: boolean
  readonly distDir: string
  /** The built viewer's fence; undefined when there is none (every page answers 404). */
  readonly distGuard: PathGuard | undefined
  /** The Content-Security-Policy header, known once the port is (before any request can arrive). */
  contentSecurityPolicy(): string | undefined
  readonly note: (peer: string, what: string) => void
}

/**
 * The built index.html marked as served by this server: the page then opens the sessions home (or `?session=`)
 * instead of the demo, and knows whether the browser is signed in (the cookie itself is HttpOnly: no script sees it).
 */
export function servedIndex(html: string, isSignedIn: boolean): string {
  const meta = `<meta name="dsh-lens-served" content="${isSignedIn ? 'signed-in' : 'signed-out'}">`
  if (/<head>/i.test(html)) return html.replace(/<head>/i, (head) => `${head}\n    ${meta}`)
  return html.replace(/^(<!doctype html>)?/i, (doctype) => `${doctype}${meta}`)
}

export function pageRequestHandler(options: PageRequestOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const { policy, note } = options
  return (req, res) => {
    const verdict = checkHost(req, policy)
    if (!verdict.ok) {
      res.writeHead(verdict.status, { 'content-type': 'text/plain; charset=utf-8' })
      res.end(verdict.message + '\n')
      return
    }
    const url = new URL(req.url ?? '/', 'http://localhost')
    if (url.pathname === STREAM_PATH) {
      res.writeHead(426, { 'content-type': 'text/plain; charset=utf-8', upgrade: 'websocket' })
      res.end(`${STREAM_PATH} is a WebSocket endpoint\n`)
      return
    }
    // The printed URL's one use of the token: sign the browser in and send it to the same page without the token.
    // (`?ws=…&token=…`, the Connect flow's URL, keeps its token in the page as before.)
    const presented = url.searchParams.get('token')
    if (
      url.pathname === '/' &&
      presented !== null &&
      !url.searchParams.has('ws') &&
      (req.method === 'GET' || req.method === 'HEAD')
    ) {
      if (!isToken(presented, policy)) {
        note(req.socket.remoteAddress ?? 'unknown', 'refused 401: wrong token in the page URL')
        res.writeHead(401, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' })
        res.end('wrong token: open the URL dsh-lens printed\n')
        return
      }
      url.searchParams.delete('token')
      res.writeHead(303, {
        location: `/${url.search}`,
        'set-cookie': signInCookie(policy.port, policy.token),
        'cache-control': 'no-store',
        'referrer-policy': 'no-referrer',
      })
      res.end()
      return
    }
    const served = options.sessionsHome ? (html: string): string => servedIndex(html, signedIn(req, policy)) : undefined
    serveStatic(req, res, options.distDir, options.distGuard, options.contentSecurityPolicy(), served).catch(() => {
      if (!res.headersSent) res.writeHead(500)
      res.end()
    })
  }
}
