/**
 * The `?` help: every row of the shortcuts table (the one the key handlers read), grouped by where it works. A modal
 * dialog: focus moves into it, Esc (its own row of the table) or the close button closes it, and focus goes back to
 * where it was. `[data-testid=shortcuts-help]`, one `[data-testid=shortcut]` per row (`data-scope`, `data-action`).
 */

import { useEffect, useRef, type KeyboardEvent } from 'react'
import { SCOPES, SHORTCUTS, shortcutFor, type ShortcutRow } from '../shared/shortcuts.ts'

export function ShortcutsHelp({ onClose }: { onClose: () => void }) {
  const dialog = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null
    dialog.current?.focus()
    return () => before?.focus()
  }, [])
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (shortcutFor('help', event) !== 'close') return
    event.preventDefault()
    event.stopPropagation()
    onClose()
  }
  return (
    <div className="absolute inset-0 z-50 flex items-start justify-center bg-canvas/70 pt-16" onClick={onClose}>
      <div
        ref={dialog}
        role="dialog"
        aria-modal="true"
        aria-labelledby="shortcuts-title"
        tabIndex={-1}
        data-testid="shortcuts-help"
        onKeyDown={onKeyDown}
        onClick={(event) => event.stopPropagation()}
        className="flex max-h-[80vh] w-[min(40rem,92vw)] flex-col border border-line bg-panel shadow-lg outline-none focus-visible:ring-2 focus-visible:ring-accent"
      >
        <header className="flex items-center gap-2 border-b border-line bg-raised px-3 py-1.5">
          <h2 id="shortcuts-title" className="text-sm font-semibold">
            Keyboard shortcuts
          </h2>
          <button
            type="button"
            onClick={onClose}
            className="ml-auto rounded border border-line bg-raised px-2 py-0.5 text-xs hover:bg-accent-soft"
          >
            Close
          </button>
        </header>
        <div className="min-h-0 overflow-auto px-3 py-2 text-xs">
          {SCOPES.map(({ scope, where }) => {
            const rows = (SHORTCUTS as readonly ShortcutRow[]).filter((row) => row.scope === scope)
            if (rows.length === 0) return null
            return (
              <section key={scope} className="mb-2" aria-labelledby={`shortcuts-${scope}`}>
                <h3 id={`shortcuts-${scope}`} className="mb-1 font-semibold">
                  {where}
                </h3>
                <dl className="grid grid-cols-[minmax(8rem,auto)_1fr] gap-x-3 gap-y-0.5">
                  {rows.map((row) => (
                    <div
                      key={`${row.scope}:${row.action}`}
                      className="contents"
                      data-testid="shortcut"
                      data-scope={row.scope}
                      data-action={row.action}
                    >
                      <dt>
                        <kbd className="rounded border border-line bg-raised px-1 font-mono">{row.keys}</kbd>
                      </dt>
                      <dd>{row.does}</dd>
                    </div>
                  ))}
                </dl>
              </section>
            )
          })}
        </div>
      </div>
    </div>
  )
}
