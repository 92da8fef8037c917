/**
 * Turn and step structure of a log, built incrementally: where each turn and
 * step starts and ends (event indices), and how a turn ended. Unclosed turns
 * (a crash mid-turn) stay open, which is what the harness's repair would close.
 */

import { Int32Vector } from '../model/growable-array.ts'
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
  /** `turns[i].start`, as a sorted vector: binary search, and the timeline's turn marks. */
  readonly starts = new Int32Vector(64)

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
        this.starts.push(index)
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
    const turn = this.turns[this.starts.countAtMost(index) - 1]
    return turn !== undefined && (turn.end === null || turn.end >= index) ? turn : undefined
  }
}
