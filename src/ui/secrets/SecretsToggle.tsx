/**
 * The Secrets button, at the end of the search row (another finder over the same log): opens the Secrets answer (the
 * worker scans the log then, not before). Once scanned it says how many secrets the log holds. `[data-testid=secrets-toggle]` (`aria-expanded`, `data-count` once known).
 */

import { useLensStore, useLensStoreApi } from '../../store/lens-store-context.tsx'
import { BUTTON } from '../shared/button-class.ts'

export function SecretsToggle() {
  const store = useLensStoreApi()
  const open = useLensStore((s) => s.secrets.open)
  const hasLog = useLensStore((s) => s.summary !== null && s.summary.length > 0)
  const distinct = useLensStore((s) =>
    s.secrets.generation === s.loadGeneration ? (s.secrets.answer?.distinct.length ?? null) : null,
  )
  return (
    <button
      type="button"
      className={`${BUTTON} ${distinct !== null && distinct > 0 ? 'border-danger text-danger' : ''}`}
      disabled={!hasLog}
      aria-expanded={open}
      data-testid="secrets-toggle"
      data-count={distinct ?? undefined}
      title="Find the API keys, tokens and passwords this log holds, and whether the model was sent them"
      onClick={() => store.getState().setSecretsOpen(!open)}
    >
      Secrets{distinct !== null ? ` · ${distinct}` : ''}
    </button>
  )
}
