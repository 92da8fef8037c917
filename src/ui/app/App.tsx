/**
 * The page: top bar, verdict banner, the three resizable columns, and the timeline; drop a log anywhere (two: the
 * Compare view). A page `dsh-lens` served shows its sessions home instead of the columns until a session (or a dropped
 * log) is open; the Compare view takes the columns' place while two runs are compared.
 */

import { useCallback, useEffect, useRef, useState, type DragEvent } from 'react'
import { useLensStore, useLensStoreApi } from '../../store/lens-store-context.tsx'
import { selectLoadState, selectPaneFractions } from '../../store/selectors.ts'
import { DiagnosticsPane } from '../panes/diagnostics/DiagnosticsPane.tsx'
import { InspectorPane } from '../panes/inspector/InspectorPane.tsx'
import { LazyReplaceGraphPane } from '../panes/replace-graph/LazyReplaceGraphPane.tsx'
import { MiddleColumn } from '../panes/request/MiddleColumn.tsx'
import { TimelineScrubber } from '../panes/timeline/TimelineScrubber.tsx'
import { ContextChartStrip } from '../panes/context-chart/ContextChartStrip.tsx'
import { LiveConnect } from '../live/LiveConnect.tsx'
import { usePageSource } from './page-source-context.tsx'
import { SessionsHome } from '../home/SessionsHome.tsx'
import { CompareView } from '../compare/CompareView.tsx'
import { FileLinkBanner, useFileLinkAddress } from '../export/FileLinkBanner.tsx'
import { TranscriptPane } from '../panes/transcript/TranscriptPane.tsx'
import { Splitter } from '../shared/Splitter.tsx'
import { RejectBanner } from './RejectBanner.tsx'
import { BundleBanner } from './BundleBanner.tsx'
import { LazySecretsPanel } from '../secrets/LazySecretsPanel.tsx'
import { SecretsToggle } from '../secrets/SecretsToggle.tsx'
import { LazyShareDialog } from '../share/LazyShareDialog.tsx'
import { SizeBudgetBanner } from './SizeBudgetBanner.tsx'
import { TopBar } from './TopBar.tsx'
import { OwnSessionsHint } from './OwnSessionsHint.tsx'
import { SearchPanel } from '../search/SearchPanel.tsx'
import { handleDrop } from '../sessions/drop-sources.ts'
import { SessionsPanel } from '../sessions/SessionsPanel.tsx'
import { ShortcutsHelp } from './ShortcutsHelp.tsx'
import { useGlobalKeys } from './use-global-keys.ts'
import { useHashSync } from './use-hash-sync.ts'
import { useTheme } from './use-theme.ts'
import { useRememberedCurrency } from './use-remembered-currency.ts'

/** The browser tab: `<title> — dsh-lens` for a titled session, `<file> — dsh-lens` for a log, else `dsh-lens`. */
function useDocumentTitle(): void {
  const title = useLensStore((s) => s.sourceMeta?.title ?? null)
  const name = useLensStore((s) => s.sourceName)
  useEffect(() => {
    const label = title ?? (name === '' ? null : name)
    document.title = label === null ? 'dsh-lens' : `${label} — dsh-lens`
  }, [title, name])
}

export function App() {
  const store = useLensStoreApi()
  const loadState = useLensStore(selectLoadState)
  const home = useHomeShown()
  const comparing = useLensStore((s) => s.compare !== null)
  const [dragOver, setDragOver] = useState(false)
  const [helpOpen, setHelpOpen] = useState(false)
  const openHelp = useCallback(() => setHelpOpen(true), [])
  useTheme()
  useRememberedCurrency()
  useHashSync()
  useGlobalKeys(openHelp)
  useDocumentTitle()
  useFileLinkAddress()

  const onDragOver = (event: DragEvent<HTMLDivElement>): void => {
    if (!event.dataTransfer.types.includes('Files')) return
    event.preventDefault()
    event.dataTransfer.dropEffect = 'copy'
    setDragOver(true)
  }
  const onDrop = (event: DragEvent<HTMLDivElement>): void => {
    event.preventDefault()
    setDragOver(false)
    // One plain log: loadFile as before; several files, a folder or a zip: the sessions bundle.
    handleDrop(event.dataTransfer, store)
  }

  return (
    <div
      data-testid="app"
      data-load-state={loadState}
      className="relative flex h-full flex-col bg-canvas text-ink"
      onDragOver={onDragOver}
      onDragLeave={(event) => {
        if (event.currentTarget === event.target) setDragOver(false)
      }}
      onDrop={onDrop}
    >
      <TopBar onHelp={openHelp} />
      <BundleBanner />
      {home || comparing ? null : (
        <SearchPanel
          end={
            <>
              <OwnSessionsHint />
              <SecretsToggle />
            </>
          }
        />
      )}
      <LiveConnect />
      <FileLinkBanner />
      {comparing ? null : <RejectBanner />}
      {comparing ? null : <SizeBudgetBanner />}
      {home || comparing ? null : <LazySecretsPanel />}
      {comparing ? <CompareView /> : home ? <ServedHome /> : <Viewer />}
      <SessionsPanel />
      {helpOpen ? <ShortcutsHelp onClose={() => setHelpOpen(false)} /> : null}
      <LazyShareDialog />
      {dragOver ? (
        <div className="pointer-events-none absolute inset-0 z-50 flex items-center justify-center border-4 border-dashed border-accent bg-accent-soft/70 text-lg font-semibold">
          Drop a session.jsonl or session.jsonl.zstd to open it, or two to compare them
        </div>
      ) : null}
    </div>
  )
}

/** A served page shows its sessions home until a session (or a dropped log) is open. */
export function useHomeShown(): boolean {
  return useLensStore((s) => s.liveView.mode === 'served' && s.liveView.sessionId === null && s.loadState === 'idle')
}

function ServedHome() {
  const source = usePageSource()
  return <SessionsHome signedIn={source.kind === 'served' && source.signedIn} />
}

/** The three resizable columns, the context chart and the timeline. */
function Viewer() {
  const store = useLensStoreApi()
  const [f0, f1] = useLensStore(selectPaneFractions)
  const mainRef = useRef<HTMLElement>(null)
  return (
    <>
      <main ref={mainRef} className="flex min-h-0 flex-1 gap-0 border-b border-line">
        <div className="min-w-0" style={{ width: `${f0 * 100}%` }}>
          <TranscriptPane />
        </div>
        <Splitter
          label="Resize transcript"
          value={f0}
          origin={0}
          containerRef={mainRef}
          onChange={(f) => store.getState().setPaneFraction(0, f)}
        />
        <div className="min-w-0" style={{ width: `${f1 * 100}%` }}>
          <MiddleColumn />
        </div>
        <Splitter
          label="Resize model surface"
          value={f1}
          origin={f0}
          containerRef={mainRef}
          onChange={(f) => store.getState().setPaneFraction(1, f)}
        />
        {/* The side column's panes share its height in fixed proportions (42 / 34 / 24), so a short column (a small
            window with search results open) shrinks all three instead of squeezing the inspector to nothing. */}
        <div className="flex min-w-0 flex-1 flex-col divide-y divide-line">
          <div className="flex min-h-0 flex-[42_1_0%] flex-col">
            <InspectorPane />
          </div>
          <div className="flex min-h-0 flex-[34_1_0%] flex-col">
            <LazyReplaceGraphPane />
          </div>
          <div className="flex min-h-0 flex-[24_1_0%] flex-col">
            <DiagnosticsPane />
          </div>
        </div>
      </main>
      {/* A landmark of its own: everything on the page is in one (header, search, main, this, the drawer). */}
      <section aria-label="Timeline" className="flex flex-col">
        <ContextChartStrip />
        <TimelineScrubber />
      </section>
    </>
  )
}
