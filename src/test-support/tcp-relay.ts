/**
 * A TCP relay for fault tests that cuts on demand: every connection is piped to the target port, and `cutAll()`
 * destroys the open ones at once (no close handshake: what a dropped network or a crashed peer looks like).
 * New connections after a cut pass again, so a test can check the recovery.
 */

import { connect, createServer, type Socket } from 'node:net'

export interface TcpRelay {
  readonly port: number
  /** Connections accepted so far. */
  readonly accepted: number
  /** Destroy every open connection now; returns how many there were. */
  cutAll(): number
  close(): Promise<void>
}

export async function startTcpRelay(targetPort: number): Promise<TcpRelay> {
  const open = new Set<Socket>()
  let accepted = 0
  const server = createServer((client) => {
    accepted++
    const target = connect(targetPort, '127.0.0.1')
    open.add(client)
    const end = (): void => {
      client.destroy()
      target.destroy()
      open.delete(client)
    }
    client.pipe(target)
    target.pipe(client)
    client.on('error', end)
    target.on('error', end)
    client.on('close', end)
    target.on('close', end)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const port = typeof address === 'object' && address !== null ? address.port : 0
  return {
    port,
    get accepted() {
      return accepted
    },
    cutAll() {
      const n = open.size
      for (const socket of [...open]) {
        socket.resetAndDestroy()
        open.delete(socket)
      }
      return n
    },
    async close() {
      for (const socket of open) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
