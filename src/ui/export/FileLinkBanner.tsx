/**
 * A link to a dropped file (`?file=<name>&size=<n>&sha256=<hex>#…`) cannot reopen the file by itself: this says which
 * file to drop (or open) to land on the link's state, and, when another file is opened instead, that it differs (the
 * file is shown from its start, never at a state that belongs to another log). It also keeps the page's address the
 * open file's link once the worker has read (and hashed) it, so a reload or a copied link names that file.
 *
 * Contract: `[data-testid=link-needs-file]` (`data-file-name`, `data-sha256`), `[data-testid=link-file-differs]`.
 */

import { useEffect } from 'react'
import { useLensStore, useLensStoreApi } from '../../store/lens-store-context.tsx'
import { formatBytes } from '../shared/format-bytes.ts'
import { VisibleText } from '../shared/VisibleText.tsx'
import { parseHash } from '../shared/location-hash.ts'
import { fileLinkHref } from './file-link.ts'

/** Once a dropped or picked file has been read through, the address names it (the hash is left to the hash sync). */
export function useFileLinkAddress(): void {
  const store = useLensStoreApi()
  useEffect(
    () =>
      store.subscribe((s, previous) => {
        if (s.fileIdentity === null || s.fileIdentity === previous.fileIdentity) return
        history.replaceState(null, '', fileLinkHref(window.location.href, s.fileIdentity))
      }),
    [store],
  )
}

export function FileLinkBanner() {
  const expected = useLensStore((s) => s.expectedFile)
  const match = useLensStore((s) => s.fileMatch)
  const loadState = useLensStore((s) => s.loadState)
  if (match !== null && !match.same) {
    const opened = match.opened
    return (
      <p className="border-b border-warn bg-warn-soft px-3 py-1.5 text-xs" role="status" data-testid="link-file-differs">
        This is not the file the link was made from: the link names <VisibleText text={match.expected.name} />
        {match.expected.sha256 !== null ? ` (sha256 ${match.expected.sha256}…)` : ''}, you opened{' '}
        <VisibleText text={opened?.name ?? 'another file'} />
        {opened?.sha256 != null ? ` (sha256 ${opened.sha256}…)` : ''}. It is shown from its start, not at the link's state; open
        the link's file to get there.
      </p>
    )
  }
  if (expected === null || loadState === 'loading') return null
  const { seq } = parseHash(expected.hash)
  return (
    <div
      className="border-b border-accent bg-accent-soft px-3 py-2"
      role="status"
      data-testid="link-needs-file"
      data-file-name={expected.name}
      data-sha256={expected.sha256 ?? ''}
    >
      <p className="text-sm">
        This link is to a log opened from a disk: drop{' '}
        <strong className="font-mono">
          <VisibleText text={expected.name} />
        </strong>
        {expected.size !== null ? ` (${formatBytes(expected.size)}` : ' ('}
        {expected.sha256 !== null ? `${expected.size !== null ? ', ' : ''}sha256 ${expected.sha256}…)` : ')'} here, or use Open
        log…, to land on {seq === null ? 'its state' : `seq ${seq}`}.
      </p>
    </div>
  )
}
