/**
 * Unary calls to the dsh web host: `POST <base>/api/<method>` with the envelope, from Node (no Origin header, a loopback
 * Host unless `--dsh` named another host), and the answer checked by host-wire. Only read methods are ever called.
 */

import { randomUUID } from 'node:crypto'
import { requestBody, responseValue, type CallResult } from './host-wire.ts'

/** The host methods dsh-lens calls: reads only (the page can never reach the host, and we never prompt or mutate). */
export type ReadMethod = 'session.list' | 'session.history' | 'subagent.list' | 'host.describe'

export interface HostRpcOptions {
  /** `http://127.0.0.1:3080/` (with the trailing slash). */
  readonly base: URL
  /** Per call; the harness's own client uses 30 s. */
  readonly timeoutMs?: number
  /** Largest answer read; a longer one is refused, not buffered (the host's own request cap is of this order). */
  readonly maxAnswerBytes?: number
}

const DEFAULT_MAX_ANSWER_BYTES = 512 * 1024 * 1024

/** The body as text, or null once it passes `limit` bytes (the read stops there). */
async function boundedText(response: Response, limit: number): Promise<string | null> {
  const declared = Number(response.headers.get('content-length') ?? NaN)
  if (declared > limit) {
    await response.body?.cancel()
    return null
  }
  const reader = response.body?.getReader()
  if (reader === undefined) return ''
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.length
    if (size > limit) {
      await reader.cancel()
      return null
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString('utf8')
}

export class HostRpc {
  private counter = 0

  constructor(private readonly options: HostRpcOptions) {}

  async call(method: ReadMethod, payload: unknown, signal?: AbortSignal): Promise<CallResult> {
    const rpcId = `lens-${++this.counter}-${randomUUID().slice(0, 8)}`
    const timeout = AbortSignal.timeout(this.options.timeoutMs ?? 30_000)
    let text: string
    try {
      const response = await fetch(new URL(`api/${method}`, this.options.base), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: requestBody(rpcId, method, payload),
        signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]),
        redirect: 'error',
      })
      const limit = this.options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES
      const body = await boundedText(response, limit)
      if (body === null) return { ok: false, why: `${method}: the answer is larger than ${limit} bytes` }
      text = body
      if (response.status !== 200) return { ok: false, why: `${method}: HTTP ${response.status}: ${text.slice(0, 200).trim()}` }
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code
      return { ok: false, why: `${method}: ${cause ?? (error instanceof Error ? error.message : String(error))}` }
    }
    return responseValue(text, rpcId, method)
  }
}
