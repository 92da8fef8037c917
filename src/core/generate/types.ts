/** Shapes the generator produces: events and packed rows exactly as the harness writes them, grouped in batches. */

/** The session header, with the harness's key order preserved by construction. */
export interface GeneratedHeader {
  readonly type: 'session'
  readonly version: 0
  readonly id: string
  readonly createdAt: number
  readonly cwd?: string
  readonly delegationDepth: number
}

export type GeneratedSurfaceOp = 'append' | { readonly op: 'replace'; readonly start: number; readonly end: number }

/** One event; keys in the order `Session.append` writes them: type, seq, time, data, sourceEventSeqs?, surfaceOp?. */
export interface GeneratedEvent {
  readonly type: string
  readonly seq: number
  readonly time: number
  readonly data: unknown
  readonly sourceEventSeqs?: readonly number[]
  readonly surfaceOp?: GeneratedSurfaceOp
}

/** A packed chunk row: storage-only, stands for `texts.length` (or `args.length`) consecutive chunk events. */
export interface GeneratedPackedRow {
  readonly type: 'text-chunks' | 'reasoning-chunks' | 'tool-call-chunks'
  readonly seq0: number
  readonly time0: number
  readonly data: {
    readonly turn: number
    readonly step: number
    readonly index: number
    readonly dt: readonly number[]
    readonly texts?: readonly string[]
    readonly id?: string
    readonly name?: string
    readonly args?: readonly string[]
  }
}

/** One line of the log body. */
export type GeneratedRecord = GeneratedEvent | GeneratedPackedRow

/** One durable append (one zstd frame): never empty, never split across frames. */
export type GeneratedBatch = readonly GeneratedRecord[]

export interface GeneratedSession {
  readonly header: GeneratedHeader
  readonly batches: readonly GeneratedBatch[]
  /** Logical event count (packed members counted one by one). */
  readonly eventCount: number
}
