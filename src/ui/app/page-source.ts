/**
 * Pure: what the page opens, from its address and whether `dsh-lens` served it (the `dsh-lens-served` meta the
 * companion server adds to index.html). In order: an offline bundle (`dsh-lens bundle`, Share…: its own inline logs,
 * whatever the address says), the Connect flow (`?ws=`), a log by URL (`?log=`), a link to a dropped file (`?file=`:
 * the page asks for that file, never shows something else), a served page (the sessions home, `?session=<id>`, or the
 * Compare view of `?compare=<id>&with=<id>`), and otherwise the bundled demo.
 */

import type { BundleData } from '../../core/export/offline-bundle.ts'
import { STREAM_PATH } from '../../live/protocol.ts'
import { parseLiveParams, type ComparePair, type LiveParams } from '../../store/live/live-view.ts'

export type ServedMarker = 'signed-in' | 'signed-out' | null

export type PageSource =
  | { readonly kind: 'connect' }
  | { readonly kind: 'log'; readonly url: string }
  | {
      readonly kind: 'file-link'
      readonly name: string
      readonly size: number | null
      /** The first 16 hex digits of the file's SHA-256, lower case, or null when the link has none. */
      readonly sha256: string | null
    }
  | {
      readonly kind: 'served'
      readonly session: string | null
      /** `?compare=A&with=B`: two of the server's sessions in the Compare view. */
      readonly compare: ComparePair | null
      readonly signedIn: boolean
    }
  | { readonly kind: 'demo' }
  /** An offline bundle: the page's data element (which session, made when, redacted how, its logs). */
  | { readonly kind: 'bundle'; readonly data: BundleData }

export function pageSource(search: string, served: ServedMarker, bundle: BundleData | null = null): PageSource {
  if (bundle !== null) return { kind: 'bundle', data: bundle }
  const params = new URLSearchParams(search)
  if (params.get('ws') !== null) return { kind: 'connect' }
  const log = params.get('log')
  if (log !== null) return { kind: 'log', url: log }
  const file = params.get('file')
  if (file !== null) {
    const size = params.get('size')
    const sha = params.get('sha256')?.toLowerCase() ?? null
    return {
      kind: 'file-link',
      name: file,
      size: size !== null && /^\d{1,15}$/.test(size) ? Number(size) : null,
      sha256: sha !== null && /^[0-9a-f]{16}$/.test(sha) ? sha : null,
    }
  }
  if (served !== null) {
    const [a, b] = [params.get('compare'), params.get('with')]
    const compare = a !== null && b !== null && a !== '' && b !== '' ? { a, b } : null
    return { kind: 'served', session: params.get('session'), compare, signedIn: served === 'signed-in' }
  }
  return { kind: 'demo' }
}

/** The marker the companion server put in the page, if any. */
export function servedMarker(doc: Pick<Document, 'querySelector'>): ServedMarker {
  const content = doc.querySelector('meta[name="dsh-lens-served"]')?.getAttribute('content')
  return content === 'signed-in' || content === 'signed-out' ? content : null
}

/**
 * The rate card the companion server prices with, as JSON, when it is not the page's built-in one (`--rates`,
 * `DSH_LENS_RATES`: the `dsh-lens-rates` meta it put in the page); null otherwise.
 */
export function servedRateCard(doc: Pick<Document, 'querySelector'>): string | null {
  const content = doc.querySelector('meta[name="dsh-lens-rates"]')?.getAttribute('content')
  return content === undefined || content === null || content === '' ? null : content
}

/**
 * The companion server a page follows, from its source: the Connect flow's `?ws=&token=[&session=]`, or the stream of
 * the server that served the page (the sign-in cookie goes with it, no token in the page). Null for any other page.
 */
export function liveParamsOf(source: PageSource, location: Pick<Location, 'search' | 'protocol' | 'host'>): LiveParams | null {
  if (source.kind === 'connect') return parseLiveParams(location.search)
  if (source.kind !== 'served') return null
  const ws = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${STREAM_PATH}`
  return {
    ws,
    token: null,
    session: source.session,
    served: true,
    ...(source.compare === null ? {} : { compare: source.compare }),
  }
}
