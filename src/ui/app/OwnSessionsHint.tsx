/**
 * On the bundled demo (until another log is opened), one line on how to open your own sessions. It sits at the end of
 * the search row, where a laptop has room for it, rather than in the top bar, whose controls fill a 1280 px line.
 * Contract: `[data-testid=own-sessions-hint]`.
 */

import { useLensStore } from '../../store/lens-store-context.tsx'
import { usePageSource } from './page-source-context.tsx'

const TEXT = 'A demo session · yours: run npx dsh-lens'

export function OwnSessionsHint() {
  const source = usePageSource()
  const generation = useLensStore((s) => s.loadGeneration)
  if (source.kind !== 'demo' || generation > 1) return null
  return (
    // Shrinks (to its first words, whole in its title) before it pushes the row onto a second line.
    <span className="min-w-0 truncate text-xs text-muted" data-testid="own-sessions-hint" title={TEXT}>
      A demo session · yours: run <code className="font-mono">npx dsh-lens</code>
    </span>
  )
}
