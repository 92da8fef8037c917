/** Where the server listens and the names it answers to: the port (with fallback), the hosts and its own origin. */

import type { Server } from 'node:http'
import { networkInterfaces } from 'node:os'

/** Names besides loopback that may appear in Host/Origin: the explicit bind address, or every local address for a wildcard. */
export function extraHostsFor(host: string): string[] {
  if (host === '127.0.0.1' || host === 'localhost' || host === '::1') return []
  if (host !== '0.0.0.0' && host !== '::') return [host]
  return Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address))
}

/** Listen on `port`, or the next free one of `attempts` ports from it when it is taken (EADDRINUSE only). */
export async function listenWithFallback(server: Server, host: string, port: number, attempts: number): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject)
        server.listen(port === 0 ? 0 : port + i, host, () => {
          server.off('error', reject)
          resolve()
        })
      })
      return
    } catch (error) {
      const taken = (error as NodeJS.ErrnoException).code === 'EADDRINUSE'
      if (!taken || port === 0 || i + 1 >= attempts || port + i + 1 > 65535) throw error
    }
  }
}

/** `http://host:port` as a browser would name this server (a wildcard bind is reached on 127.0.0.1). */
export function originOf(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host
  return `http://${name.includes(':') ? `[${name}]` : name}:${port}`
}
