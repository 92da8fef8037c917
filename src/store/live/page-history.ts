/**
 * The live page's address as the open session: `?session=<id>` so a reload reopens it. A served page pushes a history
 * entry per session the user opens (Back returns to the sessions home) and hears Back and Forward; the Connect flow
 * replaces its address. Without a window (tests in Node) it does nothing.
 */

export interface HistoryMoves {
  /** Back or Forward landed on a session's address. */
  open(sessionId: string): void
  /** Back or Forward landed on the sessions home. */
  home(): void
}

export class PageHistory {
  private readonly onPopState = (): void => {
    const session = new URLSearchParams(window.location.search).get('session')
    if (session === null) this.moves.home()
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
    if (typeof window === 'undefined') return
    const url = new URL(window.location.href)
    const already = url.searchParams.get('session') === sessionId
    url.searchParams.set('session', sessionId)
    if (push && !already) {
      url.hash = ''
      url.searchParams.delete('file')
      window.history.pushState(null, '', url)
    } else window.history.replaceState(window.history.state, '', url)
  }

  /** The address is the sessions home again (`push`: a history entry, when the user asked). */
  showHome(push: boolean): void {
    if (typeof window === 'undefined') return
    const url = new URL(window.location.href)
    url.searchParams.delete('session')
    url.searchParams.delete('file')
    url.hash = ''
    if (push) window.history.pushState(null, '', url)
    else window.history.replaceState(null, '', url)
  }
}
