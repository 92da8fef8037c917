/**
 * The SHA-256 of a dropped or picked file, computed in the worker while the file is read for the fold (hash-wasm:
 * incremental, and WebCrypto has no incremental digest), so a link to it can name the exact file
 * (`?file=<name>&size=<n>&sha256=<first 16 hex>`) and a page opening the link can tell the right file from another.
 */

import { createSHA256 } from 'hash-wasm'

export interface FileDigest {
  update(bytes: Uint8Array): void
  /** Bytes hashed so far. */
  readonly bytes: number
  /** The hex digest (64 lower-case digits); the digest is finished by it. */
  hex(): string
}

/** A fresh digest, or null where WebAssembly cannot run (the link then names the file without a hash). */
export async function sha256Digest(): Promise<FileDigest | null> {
  let hasher: Awaited<ReturnType<typeof createSHA256>>
  try {
    hasher = await createSHA256()
  } catch {
    return null
  }
  hasher.init()
  let bytes = 0
  return {
    update(chunk) {
      hasher.update(chunk)
      bytes += chunk.length
    },
    get bytes() {
      return bytes
    },
    hex: () => hasher.digest('hex'),
  }
}
