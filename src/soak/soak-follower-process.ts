/**
 * One soak follower in a process of its own, as each viewer is its own browser tab: a SoakFollower (the real
 * TailClient) reporting its position as one JSON line per second on stdout. On a `dump` line on stdin it
 * writes its per-seq counts and hashes to `<out>` (counts as bytes, then hashes as little-endian uint32) and exits.
 * Usage: tsx src/soak/soak-follower-process.ts <streamUrl> <token> <sessionId> <out>
 */

import { writeFile } from 'node:fs/promises'
import { SoakFollower } from './soak-clients.ts'

const [url, token, sessionId, out] = process.argv.slice(2)
if (url === undefined || token === undefined || sessionId === undefined || out === undefined) {
  process.stderr.write('usage: soak-follower-process <streamUrl> <token> <sessionId> <out>\n')
  process.exit(2)
}
const follower = new SoakFollower(url, token, sessionId)
const state = (): string =>
  JSON.stringify({
    lastSeq: follower.lastSeq,
    events: follower.events,
    duplicates: follower.ledger.duplicates,
    resets: follower.resets,
    order: follower.orderViolations,
    reconnects: follower.reconnects,
    errors: follower.errors.slice(0, 3),
  })
setInterval(() => process.stdout.write(state() + '\n'), 1000)
let input = ''
process.stdin.on('data', (d: Buffer) => {
  input += d.toString()
  if (!input.includes('dump')) return
  follower.close()
  const top = follower.ledger.top + 1
  const counts = follower.ledger.counts.subarray(0, top)
  const hashes = new Uint8Array(follower.ledger.hashes.buffer, 0, top * 4)
  void writeFile(out, Buffer.concat([counts, hashes])).then(() => {
    process.stdout.write(state() + '\n' + JSON.stringify({ dumped: top }) + '\n', () => process.exit(0))
  })
})
