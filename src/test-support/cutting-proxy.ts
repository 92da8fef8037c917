/**
 * A TCP proxy for fault tests that cuts connections at random points: each accepted connection is piped to the
 * upstream port and destroyed (both sides, no close handshake) after a seeded random number of bytes in either
 * direction, often in the middle of a WebSocket frame. `cuts` counts what it did; `stopCutting()` lets the
 * following connections pass whole, so a test can end with the stream complete.
 */

import { connect, createServer, type Server, type Socket } from 'node:net'
import { Rng } from '../generate/index.ts'

export interface CuttingProxyOptions {
  readonly upstreamPort: number
  readonly seed: number
  /** Bytes (both directions together) a connection carries before it is cut: uniform in [min, max]. */
  readonly minBytes: number
  readonly maxBytes: number
}

export interface CuttingProxy {
  readonly port: number
  /** Connections cut so far (each one mid-stream). */
  readonly cuts: number
  /** Connections accepted so far. */
  readonly accepted: number
  /** From now on connections pass uncut (so a test can let the stream finish). */
  stopCutting(): void
  close(): Promise<void>
}

export async function startCuttingProxy(options: CuttingProxyOptions): Promise<CuttingProxy> {
  const rng = new Rng(options.seed)
  const open = new Set<Socket>()
  let cuts = 0
  let accepted = 0
  let cutting = true
  const server: Server = createServer((client) => {
    accepted++
    const upstream = connect(options.upstreamPort, '127.0.0.1')
    open.add(client)
    open.add(upstream)
    const budget = options.minBytes + Math.floor(rng.next() * (options.maxBytes - options.minBytes + 1))
    let carried = 0
    let cut = false
    const destroy = (): void => {
      client.destroy()
      upstream.destroy()
      open.delete(client)
      open.delete(upstream)
    }
    const relay = (from: Socket, to: Socket): void => {
      from.on('data', (chunk: Buffer) => {
        if (cut) return
        if (cutting && carried + chunk.length > budget) {
          // Deliver only part of this chunk, then drop the connection: the peer sees a torn frame and a reset.
          cut = true
          cuts++
          const part = Math.max(0, budget - carried)
          if (part > 0) to.write(chunk.subarray(0, part), () => destroy())
          else destroy()
          setTimeout(destroy, 50).unref()
          return
        }
        carried += chunk.length
        if (!to.write(chunk)) {
          from.pause()
          to.once('drain', () => from.resume())
        }
      })
      from.on('error', destroy)
      from.on('close', destroy)
    }
    relay(client, upstream)
    relay(upstream, client)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const port = typeof address === 'object' && address !== null ? address.port : 0
  return {
    port,
    get cuts() {
      return cuts
    },
    get accepted() {
      return accepted
    },
    stopCutting() {
      cutting = false
    },
    async close() {
      for (const s of open) s.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
