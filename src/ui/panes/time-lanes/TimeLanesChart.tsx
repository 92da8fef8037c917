/**
 * The Time mode of the strip above the timeline (issue 30): the session's steps on a wall-clock axis, in three lanes
 * (model: waiting for the first output, then generating; tools: each call, overlapping calls on rows of their own;
 * waiting: between a step's last activity and the next request, and retry waits), stretches of over a minute with
 * nothing running folded with their length written. The worker lays the lanes out once per log state; drawing is one
 * pass over its typed arrays, and the timeline cursor is a line over the canvas (moving it never redraws). Hovering a
 * bar says its step's figures; a click moves the cursor to its event.
 */

import { useEffect, useRef, useState, type MouseEvent, type ReactNode } from 'react'
import { cursorX, type TimeStepInfo } from '../../../protocol/time-lanes.ts'
import { useLensStore, useLensStoreApi } from '../../../store/lens-store-context.tsx'
import { selectCursor } from '../../../store/selectors.ts'
import { useBoxWidth } from '../../shared/use-box-width.ts'
import { useWorkerAnswer } from '../../shared/use-worker-answer.ts'
import { useChartColors } from '../../shared/chart-colors.ts'
import { drawTimeLanes } from './draw-time-lanes.ts'
import { LANES_HEIGHT, barAt, barText, plotOf, pxOf, stepLabel, TOP, LANE_HEIGHT } from './lanes-geometry.ts'
import { TimeTotals } from './TimeTotals.tsx'
import { useTimeLanes } from './use-time-lanes.ts'

const KIND_NAMES = ['ttft', 'generation', 'model', 'tool', 'tool-open', 'waiting', 'retry'] as const

/** The figures of the step at `position` (-1: none), asked of the worker when the pointer reaches a new step. */
function useStepInfo(position: number): TimeStepInfo | null {
  return useWorkerAnswer(position < 0 ? null : `step:${position}`, (ask) => ask('time-step', { position })) ?? null
}

export function TimeLanesChart({ lead }: { lead: ReactNode }) {
  const store = useLensStoreApi()
  const cursor = useLensStore(selectCursor)
  const colors = useChartColors()
  const answer = useTimeLanes()
  const boxRef = useRef<HTMLDivElement>(null)
  const canvasRef = useRef<HTMLCanvasElement>(null)
  const width = useBoxWidth(boxRef)
  const [hover, setHover] = useState(-1)
  const plot = answer === null || width === 0 ? null : plotOf(answer, width)

  useEffect(() => {
    const canvas = canvasRef.current
    const ctx = canvas?.getContext('2d')
    if (canvas == null || ctx == null || answer === null || width === 0) return
    const started = performance.now()
    const ratio = window.devicePixelRatio || 1
    canvas.width = Math.round(width * ratio)
    canvas.height = Math.round(LANES_HEIGHT * ratio)
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0)
    drawTimeLanes(ctx, answer, plotOf(answer, width), LANES_HEIGHT, colors)
    // The benchmark probe reads this measure; no test times it.
    performance.measure('time-lanes:draw', { start: started, end: performance.now() })
  }, [answer, width, colors])

  const pointAt = (event: MouseEvent<HTMLCanvasElement>): number => {
    if (answer === null || plot === null) return -1
    const rect = event.currentTarget.getBoundingClientRect()
    return barAt(answer, plot, event.clientX - rect.left, event.clientY - rect.top)
  }
  const shown = answer !== null && hover >= 0 && hover < answer.bars.kind.length ? hover : -1
  const info = useStepInfo(shown >= 0 && answer !== null ? (answer.bars.step[shown] as number) : -1)
  const cx = answer === null || plot === null ? null : cursorX(answer, cursor)

  return (
    <section
      id="context-chart"
      aria-label="Time per step"
      data-testid="time-lanes"
      data-steps={answer?.steps ?? ''}
      data-bars={answer?.bars.kind.length ?? 0}
      data-folds={answer?.folds.length ?? 0}
      data-span-ms={answer?.span ?? ''}
      className="@container bg-panel"
    >
      {/* Two lines whatever is hovered: the totals, then the hover line (its own line, one line high), so hovering
          never changes the strip's height and so never the page's layout. */}
      <header className="flex flex-wrap items-center gap-x-3 overflow-hidden px-2 pt-1 text-xs">
        {lead}
        {answer !== null ? <TimeTotals totals={answer.totals} warnings={answer.warnings} /> : null}
        <span
          data-testid="time-hover"
          data-step={shown >= 0 && answer !== null ? stepLabel(answer, shown) : ''}
          data-kind={shown >= 0 && answer !== null ? KIND_NAMES[answer.bars.kind[shown] as number] : ''}
          data-target={shown >= 0 && answer !== null ? answer.bars.target[shown] : ''}
          className="block h-4 basis-full truncate whitespace-nowrap font-mono leading-4 tabular-nums text-ink"
        >
          {shown >= 0 && answer !== null ? (
            barText(answer, shown, info)
          ) : (
            <span className="font-sans text-muted">hover a bar for its step</span>
          )}
        </span>
      </header>
      <div ref={boxRef} className="relative h-32 px-1">
        {answer !== null && answer.steps === 0 ? (
          <p className="flex h-full items-center px-3 text-xs text-muted">No steps in this log yet.</p>
        ) : null}
        <canvas
          ref={canvasRef}
          data-testid="time-lanes-plot"
          role="img"
          aria-label="Model, tool and waiting time per step on a wall-clock axis"
          style={{ width: width > 0 ? width : '100%', height: LANES_HEIGHT }}
          className="absolute left-1 top-0 cursor-pointer"
          onPointerMove={(event) => setHover(pointAt(event))}
          onPointerLeave={() => setHover(-1)}
          onClick={(event) => {
            const bar = pointAt(event)
            if (bar >= 0 && answer !== null) store.getState().setCursor(answer.bars.target[bar] as number)
          }}
        />
        {cx !== null && plot !== null ? (
          <div
            data-testid="time-lanes-cursor"
            className="pointer-events-none absolute w-0.5 -translate-x-1/2"
            style={{ left: 4 + pxOf(plot, cx), top: TOP, height: 3 * LANE_HEIGHT, background: colors.cursor }}
          />
        ) : null}
      </div>
    </section>
  )
}
