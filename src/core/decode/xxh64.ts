/** The zstd content checksum (low 32 bits of XXH64, seed 0), from xxhash-wasm: WebAssembly, runs in workers and Node. */

import xxhash from 'xxhash-wasm'
import type { ContentChecksum } from './zstd-container.ts'

let loading: Promise<ContentChecksum> | undefined

/** Load the checksum once per thread; the WebAssembly module is embedded, nothing is fetched. */
export function loadContentChecksum(): Promise<ContentChecksum> {
  loading ??= xxhash().then(
    ({ h64Raw }) =>
      (plaintext: Uint8Array) =>
        Number(h64Raw(plaintext, 0n) & 0xffffffffn),
  )
  return loading
}
