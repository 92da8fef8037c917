/**
 * Top bar: source and stats, the file picker (hidden input), "Compare…" (a second file against the log open), load
 * progress with cancel, the currency, theme toggle. On a served page, a "Sessions" control back to the sessions home
 * and the session's title and project instead of its file name (the demo's hint on opening your own sessions is in the
 * search row: OwnSessionsHint). While two runs are compared the Compare view names them: the bar keeps its page-wide
 * controls only.
 */

import { VisibleText } from '../shared/VisibleText.tsx'
import { useRef } from 'react'
import { useLensStore, useLensStoreApi } from '../../store/lens-store-context.tsx'
import { selectLoadState, selectProgress, selectSourceName, selectSummary, selectTheme } from '../../store/selectors.ts'
import { formatBytes, formatRate } from '../shared/format-bytes.ts'
import { ExportButtons } from '../export/ExportButtons.tsx'
import { ShareButton } from '../share/ShareButton.tsx'
import { SessionsControls } from '../sessions/SessionsControls.tsx'
import { formatCount } from '../shared/format-count.ts'
import { usePageSource } from './page-source-context.tsx'
import { shortProject } from '../home/home-rows.ts'
import { CurrencySwitch } from './CurrencySwitch.tsx'
import { LogFileInput } from '../shared/LogFileInput.tsx'
import { BUTTON } from '../shared/button-class.ts'

export function TopBar({ onHelp }: { onHelp: () => void }) {
  const store = useLensStoreApi()
  const loadState = useLensStore(selectLoadState)
  const progress = useLensStore(selectProgress)
  const summary = useLensStore(selectSummary)
  const name = useLensStore(selectSourceName)
  const theme = useLensStore(selectTheme)
  const live = useLensStore((s) => s.live)
  const meta = useLensStore((s) => s.sourceMeta)
  const served = useLensStore((s) => s.liveView.mode === 'served')
  const goHome = useLensStore((s) => s.goHome)
  const source = usePageSource()
  const comparing = useLensStore((s) => s.compare !== null)
  const input = useRef<HTMLInputElement>(null)
  const compareInput = useRef<HTMLInputElement>(null)
  // The run A of "Compare with…": a log read through (or a followed session caught up), with events.
  const canCompare = !comparing && loadState === 'ready' && summary !== null && summary.length > 0
  return (
    // One line from 1280 px (xl) up: the names shrink (truncated, whole in their title) before a control wraps, so a
    // laptop keeps the panes' height; narrower windows wrap the controls onto a second line.
    <header className="relative flex flex-wrap items-center gap-x-2.5 gap-y-1 border-b border-line bg-panel px-3 py-1.5 xl:flex-nowrap">
      {loadState === 'loading' && progress !== null && progress.totalBytes !== null && progress.totalBytes > 0 ? (
        <div
          className="absolute bottom-0 left-0 h-0.5 bg-accent"
          style={{ width: `${Math.min(100, (progress.inputBytes / progress.totalBytes) * 100)}%` }}
          aria-hidden="true"
        />
      ) : null}
      <h1 className="shrink-0 text-sm font-bold">dsh-lens</h1>
      {served && loadState !== 'idle' && !comparing ? (
        <button type="button" className={BUTTON} data-testid="sessions-home-button" onClick={goHome}>
          ← Sessions
        </button>
      ) : null}
      {comparing ? null : meta?.title != null ? (
        <span className="min-w-0 max-w-96 truncate text-sm font-semibold" title={meta.title} data-testid="source-title">
          <VisibleText text={meta.title} />
        </span>
      ) : (
        <span className="min-w-0 max-w-80 truncate font-mono text-xs" title={name}>
          {name === '' ? served ? '' : 'no log' : <VisibleText text={name} />}
        </span>
      )}
      {meta?.project != null && !comparing ? (
        <span className="min-w-0 max-w-64 truncate text-xs text-muted" title={meta.project} data-testid="source-project">
          <VisibleText text={shortProject(meta.project)} />
        </span>
      ) : null}
      {summary !== null && !comparing ? (
        <span className="shrink-0 text-xs text-muted">
          {formatCount(summary.length)} events{summary.encoding !== null ? ` · ${summary.encoding}` : ''}
          {summary.upgradedEvents > 0 ? ` · ${formatCount(summary.upgradedEvents)} legacy events upgraded` : ''}
          {live ? ' · live' : ''}
        </span>
      ) : null}
      {loadState === 'loading' && progress !== null && !comparing ? (
        // One line, truncated where the bar is full: the progress wrapping to two lines made the bar taller for the
        // whole load, and the panes jumped back up when it ended.
        <span className="flex min-w-0 items-center gap-2 text-xs" role="status" data-testid="load-progress">
          <span className="min-w-0 truncate tabular-nums">
            {formatBytes(progress.inputBytes)}
            {progress.totalBytes !== null ? ` of ${formatBytes(progress.totalBytes)}` : ''} · {formatCount(progress.events)}{' '}
            events · {formatRate(progress.bytesPerSecond)}
          </span>
          <button type="button" className={`shrink-0 ${BUTTON}`} onClick={() => store.getState().cancelLoad()}>
            Cancel
          </button>
        </span>
      ) : null}
      <div className="ml-auto flex shrink-0 items-center gap-1.5">
        {(served && loadState === 'idle') || comparing ? null : (
          <>
            <ShareButton inBundle={source.kind === 'bundle'} />
            <ExportButtons />
          </>
        )}
        <SessionsControls />
        <CurrencySwitch />
        <LogFileInput ref={input} testId="file-input" onFile={(file) => store.getState().loadFile(file)} />
        <button type="button" className={BUTTON} onClick={() => input.current?.click()}>
          Open log…
        </button>
        <LogFileInput ref={compareInput} testId="compare-file-input" onFile={(file) => store.getState().compareWithFile(file)} />
        {canCompare ? (
          <button
            type="button"
            className={BUTTON}
            data-testid="compare-with-button"
            title="Compare the log open (run A) with another log (run B): where they parted, step by step"
            onClick={() => compareInput.current?.click()}
          >
            Compare…
          </button>
        ) : null}
        <button type="button" className={BUTTON} data-testid="shortcuts-button" onClick={onHelp} title="Keyboard shortcuts (?)">
          Keys
        </button>
        <button
          type="button"
          className={BUTTON}
          aria-pressed={theme === 'dark'}
          aria-label={theme === 'dark' ? 'Light theme' : 'Dark theme'}
          onClick={() => store.getState().toggleTheme()}
          title="Toggle light / dark theme"
        >
          {/* A glyph, named by its label: the bar's width goes to the controls that need words. */}
          <span aria-hidden="true">{theme === 'dark' ? '☀' : '☾'}</span>
        </button>
      </div>
    </header>
  )
}
