/**
 * The `?` help: every row of the shortcuts table (the one the key handlers read), grouped by where it works. A modal
 * dialog: focus moves into it, Esc (its own row of the table) or the close button closes it, and focus goes back to
 * where it was. `[data-testid=shortcuts-help]`, one `[data-testid=shortcut]` per row (`data-scope`, `data-action`).
 */

import { ModalDialog } from '../shared/ModalDialog.tsx'
import { SCOPES, SHORTCUTS, type ShortcutRow } from '../shared/shortcuts.ts'

export function ShortcutsHelp({ onClose }: { onClose: () => void }) {
  return (
    <ModalDialog
      title="Keyboard shortcuts"
      titleId="shortcuts-title"
      scope="help"
      closeLabel="Close"
      onClose={onClose}
      sizeClass="max-h-[80vh] w-[min(40rem,92vw)]"
      topClass="pt-16"
      data={{ 'data-testid': 'shortcuts-help' }}
    >
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
    </ModalDialog>
  )
}
