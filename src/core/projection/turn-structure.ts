/**
 * Turn and step structure of a log, built incrementally: where each turn and
 * step starts and ends (event indices), and how a turn ended. Unclosed turns
 * (a crash mid-turn) stay open, which is what the harness's repair would close.
 */

import { isRecord, type LogEvent } from '../model/log-event.ts'

export interface StepSpan {
  readonly step: number
  readonly start: number
  end: number | null
}

export interface TurnSpan {
  readonly turn: number
  readonly start: number
  end: number | null
  /** `turn/end.data.reason.kind` once the turn closed. */
  reason: string | null
  readonly steps: StepSpan[]
}

export class TurnStructure {
  readonly turns: TurnSpan[] = []

  /** The turn open at the end of the log so far, if any. */
  get openTurn(): TurnSpan | undefined {
    const last = this.turns.at(-1)
    return last !== undefined && last.end === null ? last : undefined
  }

  observe(event: LogEvent, index: number): void {
    const data = isRecord(event.data) ? event.data : undefined
    const number = (key: string) => (typeof data?.[key] === 'number' ? (data[key] as number) : -1)
    switch (event.type) {
      case 'turn/start':
        this.turns.push({ turn: number('turn'), start: index, end: null, reason: null, steps: [] })
        return
      case 'turn/end': {
        const turn = this.openTurn
        if (turn === undefined) return
        turn.end = index
        const reason = isRecord(data?.['reason']) ? data['reason']['kind'] : undefined
        turn.reason = typeof reason === 'string' ? reason : null
        const step = turn.steps.at(-1)
        if (step !== undefined && step.end === null) step.end = index
        return
      }
      case 'step/start':
        this.openTurn?.steps.push({ step: number('step'), start: index, end: null })
        return
      case 'step/end': {
        const step = this.openTurn?.steps.at(-1)
        if (step !== undefined && step.end === null) step.end = index
        return
      }
      default:
        return
    }
  }

  /** The turn that contains event `index`, by binary search over turn starts. */
  turnAt(index: number): TurnSpan | undefined {
    let lo = 0
    let hi = this.turns.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if ((this.turns[mid] as TurnSpan).start <= index) lo = mid + 1
      else hi = mid
    }
    const turn = this.turns[lo - 1]
    return turn !== undefined && (turn.end === null || turn.end >= index) ? turn : undefined
  }
}
