/**
 * Top bar: source and stats, the file picker (hidden input), load progress with cancel, theme toggle. On a served
 * page, a "Sessions" control back to the sessions home and the session's title and project instead of its file name;
 * on the demo, one line on how to open your own sessions.
 */

import { VisibleText } from '../shared/VisibleText.tsx'
import { useRef } from 'react'
import { useLensStore, useLensStoreApi } from '../../store/lens-store-context.tsx'
import { selectLoadState, selectProgress, selectSourceName, selectSummary, selectTheme } from '../../store/selectors.ts'
import { formatBytes, formatRate } from '../shared/format-bytes.ts'
import { ExportButtons } from '../export/ExportButtons.tsx'
import { SessionsControls } from '../sessions/SessionsControls.tsx'
import { formatCount } from '../shared/format-count.ts'
import { usePageSource } from './page-source-context.tsx'
import { shortProject } from '../home/home-rows.ts'

const BUTTON = 'rounded border border-line bg-raised px-2 py-0.5 text-xs hover:bg-accent-soft'

export function TopBar({ onHelp }: { onHelp: () => void }) {
  const store = useLensStoreApi()
  const loadState = useLensStore(selectLoadState)
  const progress = useLensStore(selectProgress)
  const summary = useLensStore(selectSummary)
  const name = useLensStore(selectSourceName)
  const theme = useLensStore(selectTheme)
  const live = useLensStore((s) => s.live)
  const meta = useLensStore((s) => s.sourceMeta)
  const generation = useLensStore((s) => s.loadGeneration)
  const served = useLensStore((s) => s.liveView.mode === 'served')
  const goHome = useLensStore((s) => s.goHome)
  const source = usePageSource()
  const input = useRef<HTMLInputElement>(null)
  return (
    <header className="relative flex flex-wrap items-center gap-3 border-b border-line bg-panel px-3 py-1.5">
      {loadState === 'loading' && progress !== null && progress.totalBytes !== null && progress.totalBytes > 0 ? (
        <div
          className="absolute bottom-0 left-0 h-0.5 bg-accent"
          style={{ width: `${Math.min(100, (progress.inputBytes / progress.totalBytes) * 100)}%` }}
          aria-hidden="true"
        />
      ) : null}
      <h1 className="text-sm font-bold">dsh-lens</h1>
      {served && loadState !== 'idle' ? (
        <button type="button" className={BUTTON} data-testid="sessions-home-button" onClick={goHome}>
          ← Sessions
        </button>
      ) : null}
      {meta?.title != null ? (
        <span className="max-w-96 truncate text-sm font-semibold" title={meta.title} data-testid="source-title">
          <VisibleText text={meta.title} />
        </span>
      ) : (
        <span className="max-w-80 truncate font-mono text-xs" title={name}>
          {name === '' ? served ? '' : 'no log' : <VisibleText text={name} />}
        </span>
      )}
      {meta?.project != null ? (
        <span className="max-w-64 truncate text-xs text-muted" title={meta.project} data-testid="source-project">
          <VisibleText text={shortProject(meta.project)} />
        </span>
      ) : null}
      {source.kind === 'demo' && generation <= 1 ? (
        // Shrinks (to its first words) before it pushes the buttons onto a second line: a laptop keeps its rows.
        <span className="min-w-40 flex-1 basis-0 truncate text-xs text-muted" data-testid="own-sessions-hint">
          This is a demo session · your own: run <code className="font-mono">npx dsh-lens</code>
        </span>
      ) : null}
      {summary !== null ? (
        <span className="text-xs text-muted">
          {formatCount(summary.length)} events{summary.encoding !== null ? ` · ${summary.encoding}` : ''}
          {summary.upgradedEvents > 0 ? ` · ${formatCount(summary.upgradedEvents)} legacy events upgraded` : ''}
          {live ? ' · live' : ''}
        </span>
      ) : null}
      {loadState === 'loading' && progress !== null ? (
        <span className="flex items-center gap-2 text-xs" role="status" data-testid="load-progress">
          <span className="tabular-nums">
            {formatBytes(progress.inputBytes)}
            {progress.totalBytes !== null ? ` of ${formatBytes(progress.totalBytes)}` : ''} · {formatCount(progress.events)}{' '}
            events · {formatRate(progress.bytesPerSecond)}
          </span>
          <button type="button" className={BUTTON} onClick={() => store.getState().cancelLoad()}>
            Cancel
          </button>
        </span>
      ) : null}
      <div className="ml-auto flex items-center gap-2">
        {served && loadState === 'idle' ? null : <ExportButtons />}
        <SessionsControls />
        <input
          ref={input}
          type="file"
          data-testid="file-input"
          accept=".jsonl,.zstd,.jsonl.zstd,application/json,text/plain"
          className="hidden"
          aria-hidden="true"
          tabIndex={-1}
          onChange={(event) => {
            const file = event.currentTarget.files?.[0]
            if (file !== undefined) store.getState().loadFile(file)
            event.currentTarget.value = ''
          }}
        />
        <button type="button" className={BUTTON} onClick={() => input.current?.click()}>
          Open log…
        </button>
        <button type="button" className={BUTTON} data-testid="shortcuts-button" onClick={onHelp} title="Keyboard shortcuts (?)">
          Keys
        </button>
        <button
          type="button"
          className={BUTTON}
          aria-pressed={theme === 'dark'}
          onClick={() => store.getState().toggleTheme()}
          title="Toggle light / dark theme"
        >
          {theme === 'dark' ? 'Light theme' : 'Dark theme'}
        </button>
      </div>
    </header>
  )
}
