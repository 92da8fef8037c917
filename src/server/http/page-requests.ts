/**
 * The companion server's plain HTTP requests: the Host check first (DNS rebinding), `426` on the stream's path, the
 * printed URL's sign-in (`/?token=…`: a cookie, then the same page without the token), and the built viewer's static
 * files, index.html marked as served by `dsh-lens [open]` when it asked for the sessions home, and carrying the rate
 * card the server prices with when it is not the built-in one (`--rates`, `DSH_LENS_RATES`).
 */

import type { IncomingMessage, ServerResponse } from 'node:http'
import { STREAM_PATH } from '../../live/protocol.ts'
import type { PathGuard } from '../path-guard.ts'
import { checkHost, isToken, signInCookie, signedIn, type TrustPolicy } from './request-trust.ts'
import { BUNDLE_TEMPLATE_FILE } from '../../core/export/offline-bundle.ts'
import { serveStatic, serveTemplate } from './static-files.ts'

export interface PageRequestOptions {
  readonly policy: TrustPolicy
  /** Mark index.html so the page opens the sessions home (`dsh-lens [open]`). */
  readonly sessionsHome: boolean
  readonly distDir: string
  /** The built viewer's fence; undefined when there is none (every page answers 404). */
  readonly distGuard: PathGuard | undefined
  /** The offline bundle's template, served at `/dsh-lens-bundle.html` for the page's Share… (undefined: none). */
  readonly bundleTemplate: string | undefined
  /**
   * The JSON of the rate card the server prices the sessions list with, when it is not the page's built-in one: put in
   * index.html (`dsh-lens-rates`) so the page's worker prices the Request view, the Cost mode and the inspector with it.
   */
  readonly rateCard: string | undefined
  /** The Content-Security-Policy header, known once the port is (before any request can arrive). */
  contentSecurityPolicy(): string | undefined
  readonly note: (peer: string, what: string) => void
}

/**
 * The built index.html marked as served by this server: the page then opens the sessions home (or `?session=`)
 * instead of the demo, and knows whether the browser is signed in (the cookie itself is HttpOnly: no script sees it).
 */
export function servedIndex(html: string, isSignedIn: boolean): string {
  return withMeta(html, `<meta name="dsh-lens-served" content="${isSignedIn ? 'signed-in' : 'signed-out'}">`)
}

/** The served index.html carrying the rate card (JSON) the server prices with: `<meta name="dsh-lens-rates">`. */
export function withRateCard(html: string, cardJson: string): string {
  return withMeta(html, `<meta name="dsh-lens-rates" content="${attributeText(cardJson)}">`)
}

/** `text` as a double-quoted attribute's value: the browser's getAttribute gives `text` back exactly. */
function attributeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

function withMeta(html: string, meta: string): string {
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
    const fail = (): void => {
      if (!res.headersSent) res.writeHead(500)
      res.end()
    }
    if (url.pathname === `/${BUNDLE_TEMPLATE_FILE}`) {
      serveTemplate(req, res, options.bundleTemplate, options.contentSecurityPolicy()).catch(fail)
      return
    }
    const { rateCard, sessionsHome } = options
    const served =
      sessionsHome || rateCard !== undefined
        ? (html: string): string => {
            const marked = sessionsHome ? servedIndex(html, signedIn(req, policy)) : html
            return rateCard === undefined ? marked : withRateCard(marked, rateCard)
          }
        : undefined
    serveStatic(req, res, options.distDir, options.distGuard, options.contentSecurityPolicy(), served).catch(fail)
  }
}
