/**
 * Share… (issue 39): the dialog's state. Opening it asks the worker for a review of what a bundle would hold (the open
 * log, and its subagents when the sessions drawer has them: their Files go along); the user's choices (redaction on
 * or off, home paths, values to keep by hash, subagents) stay here; writing asks the worker for the bundle, one HTML
 * file as a Blob. No log text and no secret passes through the store: reviews are masked and hashed.
 */

import type { BundleRedaction } from '../../core/export/offline-bundle.ts'
import type { BundleResult } from '../../protocol/lineage.ts'
import type { ShareBundleFile, ShareLogSource, ShareReview } from '../../protocol/share.ts'
import type { LensSliceCreator, LensState } from './types.ts'

export interface ShareOptions {
  /** Replace every secret found (on unless the user says "no redaction"). */
  readonly redact: boolean
  /** Also replace home paths and user names (`--redact-paths`). */
  readonly redactPaths: boolean
  /** Bundle the open session's subagents too (when the sessions drawer has them). */
  readonly withSubagents: boolean
}

export type ShareState = 'reviewing' | 'ready' | 'building' | 'written' | 'error'

export interface ShareWritten {
  readonly name: string
  readonly bytes: number
  readonly logs: number
  readonly redaction: BundleRedaction
}

export interface ShareView {
  readonly open: boolean
  readonly state: ShareState
  readonly review: ShareReview | null
  /** Hashes of values to keep. */
  readonly allow: readonly string[]
  readonly options: ShareOptions
  readonly written: ShareWritten | null
  readonly error: string | null
}

export interface ShareSlice {
  share: ShareView
  /** Open Share… and review the open log (`templateUrl`: the viewer's bundle template beside the page). */
  openShare: (templateUrl: string) => void
  closeShare: () => void
  setShareOptions: (change: Partial<ShareOptions>) => void
  /** Keep (or no longer keep) the value with this hash. */
  toggleAllow: (hash: string) => void
  /** Write the bundle of the review with the choices made; null when there is nothing to write. */
  writeBundle: () => Promise<ShareBundleFile | null>
}

const INITIAL: ShareView = {
  open: false,
  state: 'reviewing',
  review: null,
  allow: [],
  options: { redact: true, redactPaths: false, withSubagents: true },
  written: null,
  error: null,
}

/** The open session's descendants in the sessions drawer (their keys, parents before children), if it is one of its. */
export function drawerSubagents(result: BundleResult | null, activeKey: string | null): string[] {
  if (result === null || activeKey === null) return []
  const out: string[] = []
  const queue = [...(result.tree.nodes.get(activeKey)?.children ?? [])]
  while (queue.length > 0) {
    const key = queue.shift() as string
    if (out.includes(key)) continue
    out.push(key)
    queue.push(...(result.tree.nodes.get(key)?.children ?? []))
  }
  return out
}

/** The logs a bundle of the open session holds: the open one, then its subagents' Files as the export lays them out. */
export function shareSources(s: LensState, withSubagents: boolean): ShareLogSource[] {
  const open: ShareLogSource = { kind: 'open', path: s.sourceName === '' ? 'session.jsonl' : s.sourceName }
  const active = s.bundle.active !== null && s.bundle.active.generation === s.loadGeneration ? s.bundle.active.key : null
  if (!withSubagents) return [open]
  const result = s.bundle.result
  const children = drawerSubagents(result, active).flatMap((key): ShareLogSource[] => {
    const session = result?.sessions.find((x) => x.key === key)
    if (session === undefined) return []
    const folder = session.header?.id ?? key.split('/').slice(-2, -1)[0] ?? key
    return [{ kind: 'blob', path: `subagents/${folder}/${session.file.name}`, blob: session.file }]
  })
  return [open, ...children]
}

export const createShareSlice: LensSliceCreator<ShareSlice> =
  ({ lens: client }) =>
  (set, get, api) => {
    const patch = (change: Partial<ShareView>): void => set((s) => ({ share: { ...s.share, ...change } }))
    let templateUrl = ''
    let asked = 0
    // The worker lets go of a job's logs; nothing waits on it (a disposed client's refusal is no news either).
    const cancel = (job: number): void => void client.query('share-cancel', { job }).catch(() => undefined)

    const review = (): void => {
      const mine = ++asked
      const previous = get().share.review
      if (previous !== null) cancel(previous.job)
      patch({ state: 'reviewing', review: null, written: null, error: null })
      client.query('share-review', { logs: shareSources(get(), get().share.options.withSubagents), templateUrl }).then(
        (answer) => {
          if (mine === asked && get().share.open) patch({ state: 'ready', review: answer })
          else cancel(answer.job)
        },
        (error: unknown) => {
          if (mine === asked) patch({ state: 'error', error: error instanceof Error ? error.message : String(error) })
        },
      )
    }

    // Another log replaces the one under review: the dialog closes (its review is of the old log).
    api.subscribe((s, previous) => {
      if (s.loadGeneration !== previous.loadGeneration && s.share.open) get().closeShare()
    })

    return {
      share: INITIAL,
      openShare: (url) => {
        templateUrl = url
        set((s) => ({ share: { ...INITIAL, options: s.share.options, open: true } }))
        review()
      },
      closeShare: () => {
        asked++
        const job = get().share.review?.job
        if (job !== undefined) cancel(job)
        set((s) => ({ share: { ...INITIAL, options: s.share.options } }))
      },
      setShareOptions: (change) => {
        const before = get().share.options
        patch({ options: { ...before, ...change }, written: null })
        if (change.withSubagents !== undefined && change.withSubagents !== before.withSubagents && get().share.open) review()
      },
      toggleAllow: (hash) => {
        const allow = get().share.allow
        patch({ allow: allow.includes(hash) ? allow.filter((h) => h !== hash) : [...allow, hash], written: null })
      },
      writeBundle: async () => {
        const { review: current, options, allow, state } = get().share
        if (current === null || state === 'building') return null
        patch({ state: 'building', error: null })
        try {
          const file = await client.query('share-build', {
            job: current.job,
            redact: options.redact,
            redactPaths: options.redactPaths,
            allow: [...allow],
          })
          if (get().share.review?.job !== current.job) return null
          const { name, logs, redaction } = file
          patch({ state: 'written', written: { name, bytes: file.blob.size, logs, redaction } })
          return file
        } catch (error) {
          patch({ state: 'ready', error: error instanceof Error ? error.message : String(error) })
          return null
        }
      },
    }
  }
