/**
 * The wire shape of every surface node, recorded by LensLog as the node is folded (its event is parsed then
 * anyway), so the per-step provider rules of a whole log are judged without parsing a single event again.
 * Most nodes carry no tool call, no tool result and no lone surrogate: they share two constant shapes and cost
 * one array slot each.
 */

import { OFF_WIRE, wireShapeOf, type WireShape } from './wire-shape.ts'

/** A plain user (or system) message: ends a run of tool messages and pairs nothing. */
const USER: WireShape = { ...OFF_WIRE, leadingUser: true }
/** An assistant message without tool calls. */
const ASSISTANT: WireShape = { ...OFF_WIRE, assistant: true }

export class NodeWireShapes {
  private readonly shapes: WireShape[] = []

  /** The next node's shape: `message` as derived (null when it derives none); `mayHoldSurrogate` from its JSON text. */
  push(message: unknown, mayHoldSurrogate: boolean): void {
    if (message === null || message === undefined) {
      this.shapes.push(OFF_WIRE)
      return
    }
    const shape = wireShapeOf(message, mayHoldSurrogate)
    const plain = shape.surrogate === undefined && shape.calls.length === 0 && shape.results.length === 0
    this.shapes.push(plain ? (shape.assistant ? ASSISTANT : shape.leadingUser ? USER : shape) : shape)
  }

  /** Shape of node `node` (node ids are the fold timeline's). */
  get(node: number): WireShape {
    return this.shapes[node] ?? OFF_WIRE
  }

  get length(): number {
    return this.shapes.length
  }
}
