/**
 * The timeline scrubber over events 0..last: drag, click, keyboard. Marks show turns, replaces and diagnostics.
 * A drag moves the cursor once per animation frame; the worker client keeps only the latest state request.
 */

import { memo, useEffect, useMemo, useRef, type KeyboardEvent, type PointerEvent } from 'react'
import type { LensState } from '../../../store/create-lens-store.ts'
import { useLensStore, useLensStoreApi } from '../../../store/lens-store-context.tsx'
import { selectCursor, selectSnapshot, selectSummary } from '../../../store/selectors.ts'
import { scrubActionFor, type ScrubAction } from './scrub-keys.ts'
import { MARK_BUCKETS, indexAtPointer, markPositions } from './timeline-marks.ts'
import { lifespanOf } from '../../shared/lifespan.ts'
import { RangeRow } from './RangeRow.tsx'
import { ReplayControls } from './ReplayControls.tsx'
import { useChartColors } from '../../shared/chart-colors.ts'
import { formatCount } from '../../shared/format-count.ts'

const NO_RANGES: readonly { from: number; to: number }[] = []

/** Apply a key's cursor move to the store. */
export function runScrubAction(state: LensState, action: ScrubAction): void {
  if (action.kind === 'step') state.step(action.delta)
  else if (action.kind === 'jump') state.jump(action.mark, action.direction)
  else if (action.kind === 'home') state.setCursor(0)
  else if (action.kind === 'play') state.toggleReplay()
  else state.setCursor((state.summary?.length ?? 0) - 1)
}

/**
 * One row of marks, drawn on a canvas. Memoized: a drag re-renders the scrubber every frame, the marks only change
 * with the log. A canvas rather than a span per mark: while a big log opens, every summary moves every mark (the
 * track's scale changes), and a positioned span per mark (turns + replaces, up to MARK_BUCKETS each) made every
 * summary a long task of style recalculation and paint.
 */
/** The marks' canvas has a fixed resolution (two pixels per bucket) and is stretched over the track: it never
 * needs redrawing when the track's width changes (it does as the digits of the cursor's seq change during a drag). */
const MARK_CANVAS_WIDTH = MARK_BUCKETS * 2
const MARK_CANVAS_HEIGHT = 6
const MarkRow = memo(function MarkRow({
  marks,
  color,
  label,
}: {
  marks: { fraction: number; index: number }[]
  color: string
  label: string
}) {
  const canvasRef = useRef<HTMLCanvasElement>(null)
  useEffect(() => {
    const ctx = canvasRef.current?.getContext('2d')
    if (ctx == null) return
    ctx.clearRect(0, 0, MARK_CANVAS_WIDTH, MARK_CANVAS_HEIGHT)
    // One path, one fill: a fillRect per mark took tens of ms for 600 marks on the bench's software canvas.
    const path = new Path2D()
    for (const m of marks) path.rect(Math.round(m.fraction * (MARK_CANVAS_WIDTH - 2)), 0, 2, MARK_CANVAS_HEIGHT)
    ctx.fillStyle = color
    ctx.fill(path)
  }, [marks, color])
  return (
    <div className="relative h-1.5" aria-hidden="true" title={label}>
      <canvas
        ref={canvasRef}
        width={MARK_CANVAS_WIDTH}
        height={MARK_CANVAS_HEIGHT}
        data-marks={marks.length}
        className="absolute inset-0 h-full w-full"
      />
    </div>
  )
})

export function TimelineScrubber() {
  const store = useLensStoreApi()
  const summary = useLensStore(selectSummary)
  const snapshot = useLensStore(selectSnapshot)
  const cursor = useLensStore(selectCursor)
  const trackRef = useRef<HTMLDivElement>(null)
  const dragging = useRef(false)
  const frame = useRef<number | null>(null)
  const pendingX = useRef(0)
  const last = (summary?.length ?? 0) - 1
  const visible = useLensStore((s) => (s.searchResults?.error === null ? s.searchResults.visible : NO_RANGES))
  const selectedSurface = useLensStore((s) => s.detail?.summary.surface ?? null)
  const lifespan = useMemo(() => {
    const span = lifespanOf(selectedSurface, last + 1)
    return span === null ? NO_RANGES : [span]
  }, [selectedSurface, last])
  // The theme's warn / danger / muted tokens (compaction and prune are drawn in warn and danger).
  const colors = useChartColors()
  const cursorSeq = summary?.seqIsIndex !== false || snapshot?.index !== cursor ? cursor : snapshot.seq
  const marks = useMemo(() => {
    if (summary === null) return { turns: [], replaces: [], diagnostics: [] }
    return {
      turns: markPositions(summary.turnIndices, last),
      replaces: markPositions(
        summary.replacements.map((r) => r.index),
        last,
      ),
      diagnostics: markPositions(summary.diagnosticIndices, last),
    }
  }, [summary, last])

  const moveTo = (clientX: number): void => {
    const box = trackRef.current?.getBoundingClientRect()
    if (box === undefined) return
    store.getState().setCursor(indexAtPointer(clientX, box.left, box.width, last))
  }
  const onPointerDown = (event: PointerEvent<HTMLDivElement>): void => {
    if (last < 0) return
    // Scrubbing pauses the replay (even a click where the cursor already is).
    store.getState().setReplayPlaying(false)
    dragging.current = true
    event.currentTarget.setPointerCapture(event.pointerId)
    event.currentTarget.focus()
    moveTo(event.clientX)
  }
  const onPointerMove = (event: PointerEvent<HTMLDivElement>): void => {
    if (!dragging.current) return
    pendingX.current = event.clientX
    // One cursor move per frame, however fast the pointer events come.
    frame.current ??= requestAnimationFrame(() => {
      frame.current = null
      moveTo(pendingX.current)
    })
  }
  const onPointerUp = (): void => {
    dragging.current = false
  }
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    const action = scrubActionFor(event)
    if (action === null) return
    event.preventDefault()
    runScrubAction(store.getState(), action)
  }

  const fraction = last > 0 ? Math.max(0, cursor) / last : 0
  const lastSeq = summary?.lastSeq ?? -1
  return (
    <div className="flex items-center gap-3 border-t border-line bg-panel px-3 py-2">
      <ReplayControls />
      <div
        data-testid="timeline"
        data-cursor={cursorSeq}
        data-max={lastSeq}
        role="slider"
        tabIndex={0}
        aria-label="Timeline cursor (←/→ one event, shift+←/→ surface change, [ ] replace, PageUp/PageDown turn, Home/End, Space replay)"
        aria-valuemin={0}
        aria-valuemax={Math.max(0, lastSeq)}
        aria-valuenow={Math.max(0, cursorSeq)}
        aria-valuetext={`seq ${cursorSeq} of ${lastSeq}`}
        aria-disabled={last < 0}
        onKeyDown={onKeyDown}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        className="relative min-w-0 flex-1 cursor-pointer touch-none select-none rounded py-1"
      >
        <div ref={trackRef} className="relative">
          <MarkRow marks={marks.turns} color={colors.muted} label="turn starts" />
          <div className="relative my-0.5 h-2 rounded bg-raised">
            <div className="absolute left-0 top-0 h-full rounded bg-accent-soft" style={{ width: `${fraction * 100}%` }} />
            <div className="absolute -top-1 h-4 w-1 -translate-x-1/2 rounded bg-accent" style={{ left: `${fraction * 100}%` }} />
          </div>
          <MarkRow marks={marks.replaces} color={colors.compaction} label="replace operations" />
          <MarkRow marks={marks.diagnostics} color={colors.prune} label="diagnostics" />
          {/* Room for both range rows is always kept, so selecting an entry or searching never moves the page. */}
          <div className="h-3">
            {visible.length > 0 ? (
              <RangeRow
                ranges={visible}
                last={last}
                className="bg-search"
                label="search: a match on the model surface"
                testId="search-visible"
              />
            ) : null}
            {lifespan.length > 0 ? (
              <RangeRow
                ranges={lifespan}
                last={last}
                className="bg-lifespan"
                label="selected entry on the model surface"
                testId="lifespan-timeline"
              />
            ) : null}
          </div>
        </div>
      </div>
      <div className="shrink-0 whitespace-nowrap text-right font-mono text-xs tabular-nums text-muted" aria-live="polite">
        seq {cursorSeq < 0 ? '—' : formatCount(cursorSeq)} / {lastSeq < 0 ? '—' : formatCount(lastSeq)}
        {snapshot !== null ? ` · ${snapshot.replacementCount} replaces` : ''}
      </div>
    </div>
  )
}
