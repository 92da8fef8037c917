/**
 * The live page's address as the open session: `?session=<id>` so a reload reopens it, or `?compare=<id>&with=<id>`
 * for the Compare view. A served page pushes a history entry per session or comparison the user opens (Back returns to
 * the sessions home) and hears Back and Forward; the Connect flow replaces its address. Without a window (tests in
 * Node) it does nothing.
 */

export interface HistoryMoves {
  /** Back or Forward landed on a session's address. */
  open(sessionId: string): void
  /** Back or Forward landed on the Compare view of two sessions. */
  compare(a: string, b: string): void
  /** Back or Forward landed on the sessions home. */
  home(): void
}

/** The address's parameters that name what is open: one session, or two compared. */
const OPEN_PARAMS = ['session', 'compare', 'with'] as const

export class PageHistory {
  private readonly onPopState = (): void => {
    const params = new URLSearchParams(window.location.search)
    const session = params.get('session')
    const [a, b] = [params.get('compare'), params.get('with')]
    if (a !== null && b !== null) this.moves.compare(a, b)
    else if (session === null) this.moves.home()
    else this.moves.open(session)
  }

  constructor(private readonly moves: HistoryMoves) {}

  /** Hear Back and Forward (served pages). */
  listen(): void {
    if (typeof window !== 'undefined') window.addEventListener('popstate', this.onPopState)
  }

  stop(): void {
    if (typeof window !== 'undefined') window.removeEventListener('popstate', this.onPopState)
  }

  /** The address names `sessionId`; `push` a history entry (a served page, when the user opened it). */
  showSession(sessionId: string, push: boolean): void {
    this.show({ session: sessionId }, push)
  }

  /** The address names two sessions compared (`?compare=A&with=B`). */
  showCompare(a: string, b: string, push: boolean): void {
    this.show({ compare: a, with: b }, push)
  }

  /** The address is the sessions home again (`push`: a history entry, when the user asked). */
  showHome(push: boolean): void {
    if (typeof window === 'undefined') return
    const url = new URL(window.location.href)
    for (const name of OPEN_PARAMS) url.searchParams.delete(name)
    url.searchParams.delete('file')
    url.hash = ''
    if (push) window.history.pushState(null, '', url)
    else window.history.replaceState(null, '', url)
  }

  private show(params: Readonly<Record<string, string>>, push: boolean): void {
    if (typeof window === 'undefined') return
    const url = new URL(window.location.href)
    const already = Object.entries(params).every(([name, value]) => url.searchParams.get(name) === value)
    for (const name of OPEN_PARAMS) if (!(name in params)) url.searchParams.delete(name)
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value)
    // A comparison has no cursor of its own: a hash would belong to one run only.
    if ('compare' in params) url.hash = ''
    if (push && !already) {
      url.hash = ''
      url.searchParams.delete('file')
      window.history.pushState(null, '', url)
    } else window.history.replaceState(window.history.state, '', url)
  }
}
