/**
 * Test-only zstd writer: compresses each plaintext to its own frame with the
 * system `zstd` binary (checksummed by default) and concatenates them, which is
 * exactly the harness's container. Node 20 has no zstd in zlib; `.ci/run`
 * installs the binary when a machine lacks it.
 */

import { spawnSync } from 'node:child_process'

export function zstdFrame(plaintext: Uint8Array | string): Uint8Array {
  const result = spawnSync('zstd', ['-q', '-c', '--no-progress'], { input: plaintext, maxBuffer: 1 << 30 })
  if (result.status !== 0) throw new Error(`zstd failed: ${result.stderr?.toString() ?? result.error}`)
  return new Uint8Array(result.stdout)
}

export function zstdFrames(plaintexts: readonly (Uint8Array | string)[]): Uint8Array {
  const frames = plaintexts.map(zstdFrame)
  const out = new Uint8Array(frames.reduce((n, f) => n + f.length, 0))
  let at = 0
  for (const f of frames) {
    out.set(f, at)
    at += f.length
  }
  return out
}
