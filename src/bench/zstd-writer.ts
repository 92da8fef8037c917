/** Node-only multi-frame zstd writer: one frame per plaintext (header, then each batch), via the system `zstd` binary. */

import { spawnSync } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * Node 20 has no zlib zstd, and a native binding would be a new dependency. The
 * zstd CLI compresses each listed file into its own frame (content checksum on by
 * default) and concatenates them on stdout: exactly the harness's container, one
 * process for the whole log instead of one per batch.
 */
export function writeZstdFrames(frames: Iterable<string | Uint8Array>, outPath: string): number {
  const dir = mkdtempSync(join(tmpdir(), 'dsh-lens-frames-'))
  try {
    const names: string[] = []
    for (const frame of frames) {
      const name = join(dir, String(names.length).padStart(8, '0'))
      writeFileSync(name, frame)
      names.push(name)
    }
    const list = join(dir, 'filelist.txt')
    writeFileSync(list, names.join('\n') + '\n')
    const out = openSync(outPath, 'w')
    try {
      const result = spawnSync('zstd', ['-q', '-c', '--filelist', list], { stdio: ['ignore', out, 'pipe'] })
      if (result.error !== undefined) throw result.error
      if (result.status !== 0) throw new Error(`zstd failed (${String(result.status)}): ${result.stderr.toString()}`)
    } finally {
      closeSync(out)
    }
    return names.length
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
