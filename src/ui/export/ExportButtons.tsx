/**
 * Export from the current state: "Copy link" (the page URL with `#seq`/`#sel` of the cursor and selection, other hash
 * parameters such as `#step` kept; a live link without its token; a dropped file's link names the file by name, size
 * and digest, `?file=…&size=…&sha256=…`, so it is enabled once the worker has read the file through) and "Save prefix" (the log through the cursor as a
 * new plain session.jsonl, built in the worker by the core's `logPrefix`, downloaded as a Blob).
 *
 * Contract: `[data-testid=copy-link]` (after a click it carries `data-link`, the link copied);
 * `[data-testid=save-prefix]` (after a save it carries `data-saved-seq` and `data-saved-events`).
 */

import { useState } from 'react'
import { useLensStore, useLensStoreApi } from '../../store/lens-store-context.tsx'
import { deepLink, prefixFileName, withoutToken } from './deep-link.ts'
import { formatCount } from '../shared/format-count.ts'
import { saveBlob } from '../shared/save-blob.ts'
import { BUTTON } from '../shared/button-class.ts'

export function ExportButtons() {
  const store = useLensStoreApi()
  const ready = useLensStore((s) => s.summary !== null && s.summary.length > 0 && s.cursor >= 0)
  // A file's link names it by its digest: not before the worker has read it through.
  const linkable = useLensStore((s) => s.sourceKind !== 'file' || s.fileIdentity !== null)
  const [link, setLink] = useState<string | null>(null)
  const [note, setNote] = useState<string | null>(null)
  const [saved, setSaved] = useState<{ seq: number; events: number } | null>(null)

  const copyLink = async (): Promise<void> => {
    const s = store.getState()
    if (s.summary === null) return
    const url = deepLink(withoutToken(window.location.href), await s.seqOfIndex(s.cursor), await s.seqOfIndex(s.selected))
    setLink(url)
    try {
      await navigator.clipboard.writeText(url)
      setNote('Link copied')
    } catch {
      // No clipboard permission (an insecure origin, a denied prompt): show the link to copy by hand.
      setNote(`Copy this link: ${url}`)
    }
  }

  const savePrefix = async (): Promise<void> => {
    const s = store.getState()
    try {
      const file = await s.logPrefix(s.cursor)
      saveBlob(file.blob, prefixFileName(s.sourceName, file.seq))
      setSaved({ seq: file.seq, events: file.events })
      setNote(`Saved ${formatCount(file.events)} events through seq ${file.seq}`)
    } catch (error) {
      setNote(`Could not save the prefix: ${error instanceof Error ? error.message : String(error)}`)
    }
  }

  return (
    <>
      <button
        type="button"
        className={BUTTON}
        disabled={!ready || !linkable}
        data-testid="copy-link"
        data-link={link ?? undefined}
        title="Copy a link to this cursor and selection"
        onClick={() => void copyLink()}
      >
        Copy link
      </button>
      <button
        type="button"
        className={BUTTON}
        disabled={!ready}
        data-testid="save-prefix"
        data-saved-seq={saved?.seq}
        data-saved-events={saved?.events}
        title="Save the log up to and including the cursor as a new session.jsonl (a minimal reproduction)"
        onClick={() => void savePrefix()}
      >
        Save prefix
      </button>
      {note !== null ? (
        <span className="max-w-72 truncate text-xs text-muted" role="status" title={note} data-testid="export-note">
          {note}
        </span>
      ) : null}
    </>
  )
}
