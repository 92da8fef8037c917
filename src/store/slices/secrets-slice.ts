/**
 * The Secrets answer's state (issue 39): whether the panel is open, and the worker's answer for the open log. The scan
 * runs in the worker, only once the user opened the answer and the log is ready (never while it loads: answers are
 * paid when asked); while open it is asked again when the log grows (a live session), one scan at a time. A place's
 * link lands on its event: the cursor and the selection move there.
 */

import type { SecretsAnswer } from '../../protocol/secrets.ts'
import type { LensSliceCreator } from './types.ts'

export interface SecretsView {
  readonly open: boolean
  readonly answer: SecretsAnswer | null
  /** The load the answer is of (another load drops it). */
  readonly generation: number
  readonly scanning: boolean
  readonly error: string | null
}

export interface SecretsSlice {
  secrets: SecretsView
  /** Open the Secrets answer (the worker scans the open log once it is ready) or close it. */
  setSecretsOpen: (open: boolean) => void
  /** Move the cursor to a place's event and select it; false when there is no such event (the session header). */
  goToSecret: (index: number) => boolean
}

const CLOSED: SecretsView = { open: false, answer: null, generation: -1, scanning: false, error: null }
/** A growing log is scanned again at most this often while the panel is open. */
const RESCAN_MS = 1000

export const createSecretsSlice: LensSliceCreator<SecretsSlice> =
  ({ lens: client }) =>
  (set, get, api) => {
    const patch = (change: Partial<SecretsView>): void => set((s) => ({ secrets: { ...s.secrets, ...change } }))
    let asking = false
    let timer: ReturnType<typeof setTimeout> | undefined
    /** When the last answer arrived, and for which load: a growing log is scanned again only after RESCAN_MS. */
    let answered = { at: -Infinity, generation: -1 }

    /** Ask for the answer if it is wanted and not current: the panel open, the log ready, the answer of another length. */
    const ask = (): void => {
      const s = get()
      if (!s.secrets.open || asking || s.loadState !== 'ready' || s.summary === null) return
      const current = s.secrets.answer
      if (s.secrets.generation === s.loadGeneration && current !== null && current.length === s.summary.length) return
      const generation = s.loadGeneration
      const wait = answered.generation === generation ? answered.at + RESCAN_MS - Date.now() : 0
      if (wait > 0) {
        clearTimeout(timer)
        timer = setTimeout(ask, wait)
        return
      }
      asking = true
      patch({ scanning: true })
      client
        .query('secrets', {})
        .then(
          (answer) => {
            if (get().loadGeneration === generation) patch({ answer, generation, scanning: false, error: null })
          },
          (error: unknown) => {
            if (get().loadGeneration === generation)
              patch({ scanning: false, error: error instanceof Error ? error.message : String(error) })
          },
        )
        .finally(() => {
          asking = false
          answered = { at: Date.now(), generation }
          // The log may have grown (or another loaded) while this scan ran.
          ask()
        })
    }

    api.subscribe((s, previous) => {
      if (s.loadGeneration !== previous.loadGeneration && s.secrets.answer !== null)
        set({ secrets: { ...s.secrets, answer: null, generation: -1, error: null } })
      if (!s.secrets.open) return
      if (s.loadState !== previous.loadState || s.summary !== previous.summary || s.secrets.open !== previous.secrets.open) ask()
    })

    return {
      secrets: CLOSED,
      setSecretsOpen: (open) => patch({ open }),
      goToSecret: (index) => {
        const length = get().summary?.length ?? 0
        if (index < 0 || index >= length) return false
        get().setCursor(index)
        get().select(index, 'link')
        return true
      },
    }
  }
