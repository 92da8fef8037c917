/**
 * The sessions drawer: the tree of the logs opened together (several files, a folder, a web-export zip), what was
 * left out and why, and for the open session the events in it that started a child (each linked to the child).
 * Opens by itself after a scan; the top bar's Sessions button toggles it.
 *
 * Contract: `[data-testid=sessions-panel]` with `data-state` (`scanning|ready|error`), the tree (see SessionTree),
 * `[data-testid=child-link]` with `data-seq` (the parent's starting event) and `data-child-key` for each child of the
 * open session, `[data-testid=sessions-skipped]` with `data-count`.
 */

import { VisibleText } from '../shared/VisibleText.tsx'
import { useEffect, useMemo, useRef, type KeyboardEvent } from 'react'
import { useLensStore } from '../../store/lens-store-context.tsx'
import { SESSIONS_TOGGLE_ID } from './SessionsControls.tsx'
import { SessionTree, treeRows } from './SessionTree.tsx'
import { shortcutFor } from '../shared/shortcuts.ts'
import { BUTTON } from '../shared/button-class.ts'

export function SessionsPanel() {
  const generation = useLensStore((s) => s.loadGeneration)
  const { result, scanning, error, active, drawerOpen } = useLensStore((s) => s.bundle)
  const setDrawerOpen = useLensStore((s) => s.setDrawerOpen)
  const openSession = useLensStore((s) => s.openBundleSession)
  const rows = useMemo(() => (result === null ? [] : treeRows(result.tree, result.seeds)), [result])
  const shown = drawerOpen && (result !== null || scanning !== null || error !== null)
  // Keyboard use: focus moves into the drawer when it opens (it comes last in the page's order, so Tab alone took
  // dozens of stops to reach it, past the panes it covers); Esc closes it, and closing it (Esc or Close) gives focus
  // back to the Sessions button instead of leaving it on the page's body.
  const asideRef = useRef<HTMLElement>(null)
  useEffect(() => {
    if (shown) asideRef.current?.focus()
  }, [shown])
  const closeAndReturn = (): void => {
    setDrawerOpen(false)
    document.getElementById(SESSIONS_TOGGLE_ID)?.focus()
  }
  const onKeyDown = (event: KeyboardEvent<HTMLElement>): void => {
    if (shortcutFor('drawer', event) !== 'close') return
    event.preventDefault()
    closeAndReturn()
  }
  if (!shown) return null
  const current = active !== null && active.generation === generation ? active.key : null
  const currentNode = current === null ? undefined : result?.tree.nodes.get(current)
  const startedHere = (currentNode?.children ?? [])
    .map((key) => ({ key, node: result?.tree.nodes.get(key) }))
    .filter((c) => c.node !== undefined)
  const state = scanning !== null ? 'scanning' : error !== null ? 'error' : 'ready'
  return (
    <aside
      ref={asideRef}
      id="sessions-panel"
      tabIndex={-1}
      onKeyDown={onKeyDown}
      className="absolute top-10 bottom-16 left-0 z-30 flex w-[min(28rem,90vw)] flex-col border border-line bg-panel shadow-lg outline-none focus-visible:ring-2 focus-visible:ring-accent"
      data-testid="sessions-panel"
      data-state={state}
      aria-label="Sessions"
    >
      <header className="flex items-center gap-2 border-b border-line bg-raised px-3 py-1.5">
        <h2 className="text-sm font-semibold">Sessions</h2>
        <span className="text-xs text-muted">
          {scanning !== null ? `scanning ${scanning.done} of ${scanning.total}…` : `${rows.length} session(s)`}
        </span>
        <button type="button" className={`${BUTTON} ml-auto`} onClick={closeAndReturn}>
          Close
        </button>
      </header>
      {error !== null ? <p className="px-3 py-2 text-xs text-danger">{error}</p> : null}
      <SessionTree
        rows={rows}
        current={current}
        onOpen={(key) => openSession(key)}
        onJump={(key, seq) => openSession(key, seq)}
      />
      {startedHere.length > 0 ? (
        <section className="border-t border-line px-3 py-1.5 text-xs">
          <h3 className="font-semibold">Children started in this session</h3>
          <ul>
            {startedHere.map(({ key, node }) => (
              <li key={key} className="flex items-center gap-2">
                {node?.start !== null && node?.start !== undefined ? (
                  <button
                    type="button"
                    className="font-mono text-accent hover:underline"
                    title="Move the cursor to the event that started it"
                    onClick={() => openSession(current as string, node.start?.parentSeq)}
                  >
                    #{node.start.parentSeq}
                  </button>
                ) : (
                  <span className="text-muted">start not found</span>
                )}
                <span>→</span>
                <button
                  type="button"
                  className="font-mono hover:underline"
                  data-testid="child-link"
                  data-seq={node?.start?.parentSeq ?? ''}
                  data-child-key={key}
                  onClick={() => openSession(key)}
                >
                  <VisibleText text={node?.id ?? key} />
                </button>
                <span className="text-muted">
                  {node?.kind}
                  {node?.start?.heuristic === true ? ' · heuristic link' : ''}
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {result !== null && result.skipped.length > 0 ? (
        <details
          className="border-t border-line px-3 py-1.5 text-xs"
          data-testid="sessions-skipped"
          data-count={result.skipped.length}
        >
          <summary>{result.skipped.length} file(s) left out</summary>
          <ul className="max-h-32 overflow-auto">
            {result.skipped.map((s) => (
              <li key={s.path}>
                <span className="font-mono">
                  <VisibleText text={s.path} />
                </span>
                : <VisibleText text={s.why} />
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </aside>
  )
}
