/**
 * Top-bar controls for sessions that belong together: "Open sessions…" (several files or a `dsh-session-*.zip`),
 * "Open folder…" (a directory, `webkitdirectory`), and "Sessions" to show the drawer once there is a bundle.
 *
 * Contract: hidden inputs `[data-testid=sessions-input]` (multiple) and `[data-testid=directory-input]`;
 * `[data-testid=sessions-toggle]`.
 */

import { useRef } from 'react'
import { useLensStore } from '../../store/lens-store-context.tsx'
import { sourcesFromFiles } from './collect-sources.ts'
import { BUTTON } from '../shared/button-class.ts'

/** The Sessions button's id: the drawer (SessionsPanel) gives focus back to it when it closes. */
export const SESSIONS_TOGGLE_ID = 'sessions-toggle'

export function SessionsControls() {
  const files = useRef<HTMLInputElement>(null)
  const folder = useRef<HTMLInputElement>(null)
  const hasBundle = useLensStore((s) => s.bundle.result !== null || s.bundle.scanning !== null)
  const drawerOpen = useLensStore((s) => s.bundle.drawerOpen)
  const openBundle = useLensStore((s) => s.openBundle)
  const setDrawerOpen = useLensStore((s) => s.setDrawerOpen)
  const onPick = (input: HTMLInputElement): void => {
    const picked = Array.from(input.files ?? [])
    input.value = ''
    if (picked.length > 0) openBundle(sourcesFromFiles(picked))
  }
  return (
    <>
      <input
        ref={files}
        type="file"
        multiple
        data-testid="sessions-input"
        accept=".jsonl,.zstd,.zip,application/zip"
        className="hidden"
        aria-hidden="true"
        tabIndex={-1}
        onChange={(event) => onPick(event.currentTarget)}
      />
      <input
        ref={(node) => {
          folder.current = node
          // React has no typed prop for it: set the attribute directly.
          node?.setAttribute('webkitdirectory', '')
        }}
        type="file"
        data-testid="directory-input"
        className="hidden"
        aria-hidden="true"
        tabIndex={-1}
        onChange={(event) => onPick(event.currentTarget)}
      />
      <button
        type="button"
        className={BUTTON}
        onClick={() => files.current?.click()}
        title="Open several logs or a dsh-session-*.zip export"
      >
        Open sessions…
      </button>
      <button type="button" className={BUTTON} onClick={() => folder.current?.click()} title="Open every log in a folder">
        Open folder…
      </button>
      {hasBundle ? (
        <button
          type="button"
          className={BUTTON}
          id={SESSIONS_TOGGLE_ID}
          data-testid="sessions-toggle"
          aria-pressed={drawerOpen}
          aria-controls="sessions-panel"
          onClick={() => setDrawerOpen(!drawerOpen)}
        >
          Sessions
        </button>
      ) : null}
    </>
  )
}
