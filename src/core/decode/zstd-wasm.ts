/**
 * Complete zstd frames decoded by libzstd compiled to WebAssembly (zstddec): 2-4x faster than fzstd, which was most
 * of a zstd log's load (fzstd 587 ms of a 954 ms fold of the 280k bench log in a browser worker).
 *
 * fzstd stays the reference for everything but the happy path. libzstd is used only for a frame that declares its
 * content size (the harness's one-shot compressor always does) of at most WASM_FRAME_MAX bytes, and its output is
 * kept only when it is exactly that size; zstddec reports a libzstd error as a short result, so any frame libzstd
 * refuses (corrupt data, its own checksum check) is decoded again by fzstd, which throws what it always threw. A
 * valid frame decodes to the same bytes either way (zstd is a format, not an implementation), so verdicts, error
 * texts and plaintext are exactly those of `decompress(frame)`.
 */

import { decompress } from 'fzstd'
import type { ZSTDDecoder } from 'zstddec'
import type { FrameDecompressor } from './zstd-container.ts'

/**
 * Larger declared frames go to fzstd: libzstd's output buffer lives in the module's memory, which only grows, and a
 * harness append batch is kilobytes. (A size the blocks cannot hold never gets here: the container refuses it.)
 */
export const WASM_FRAME_MAX = 16 * 1024 * 1024

/** The URL scheme zstddec's `init()` fetches its embedded module from. */
const WASM_DATA_URL = 'data:application/wasm;base64,'

type Fetch = (input: unknown, init?: unknown) => Promise<{ arrayBuffer(): Promise<ArrayBuffer> }>
interface Platform {
  fetch?: Fetch
  atob?: (base64: string) => string
  console?: { warn(message: string): void }
}

/**
 * zstddec's `init()` fetches its module from a `data:` URL, which the viewer's Content-Security-Policy refuses
 * (`connect-src 'self'`), and which would be the only `data:` load in the app. For that one synchronous call, a
 * fetch that answers exactly that URL from the string in hand stands in (every other URL goes to the real fetch),
 * so the policy stays as strict and the module is still compiled under `'wasm-unsafe-eval'` only.
 */
function initWithoutDataFetch(decoder: ZSTDDecoder): Promise<void> {
  const platform = globalThis as unknown as Platform
  const realFetch = platform.fetch
  const atob = platform.atob
  if (realFetch === undefined || atob === undefined) return decoder.init()
  const local: Fetch = (input, init) => {
    if (typeof input !== 'string' || !input.startsWith(WASM_DATA_URL)) return realFetch(input, init)
    const text = atob(input.slice(WASM_DATA_URL.length))
    const bytes = new Uint8Array(text.length)
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i)
    return Promise.resolve({ arrayBuffer: () => Promise.resolve(bytes.buffer) })
  }
  platform.fetch = local
  try {
    return decoder.init()
  } finally {
    platform.fetch = realFetch
  }
}

/** One frame: libzstd when it can answer exactly, else fzstd (see the module comment). */
export function wasmFrameDecompressor(decoder: ZSTDDecoder): FrameDecompressor {
  return (frame, _index, _offset, declared) => {
    if (declared !== undefined && declared > 0 && declared <= WASM_FRAME_MAX) {
      const plaintext = decoder.decode(frame, declared)
      if (plaintext.length === declared) return plaintext
    }
    return decompress(frame)
  }
}

let loading: Promise<ZSTDDecoder | null> | undefined

/** The one warning this module writes (tests look for it). */
export const LIBZSTD_UNAVAILABLE = 'dsh-lens: libzstd (WebAssembly) could not be loaded; zstd frames decode with fzstd'

/**
 * zstddec's decoder for this thread, compiled once (the module is embedded: nothing is fetched over the network),
 * or null where WebAssembly cannot be compiled.
 */
export function loadZstdDecoder(): Promise<ZSTDDecoder | null> {
  loading ??= (async () => {
    try {
      // Its own chunk in the browser (75 KB, the module embedded as text): not parsed with the worker's script
      // before the worker can answer anything, and never loaded for a JSONL log.
      const { ZSTDDecoder } = await import('zstddec')
      const decoder = new ZSTDDecoder()
      await initWithoutDataFetch(decoder)
      return decoder
    } catch (error) {
      // Said once, so a policy or platform that stops the compile is seen (the answers are the same without it).
      ;(globalThis as unknown as Platform).console?.warn(`${LIBZSTD_UNAVAILABLE}: ${String(error)}`)
      return null
    }
  })()
  return loading
}

/** The frame decoder for this thread; without WebAssembly, fzstd alone (the same frames, only slower). */
export async function loadFrameDecompressor(): Promise<FrameDecompressor> {
  const decoder = await loadZstdDecoder()
  return decoder === null ? (frame) => decompress(frame) : wasmFrameDecompressor(decoder)
}

/**
 * A decoder usable at once: fzstd until libzstd has compiled, libzstd from then on (the same plaintext either way).
 * libzstd starts loading at the first frame, so a session is ready without waiting on a compile, and a plain JSONL
 * log never pays for one.
 */
export function frameDecompressorNow(): FrameDecompressor {
  let current: FrameDecompressor | null = null
  return (frame, index, offset, declared) => {
    if (current === null) {
      current = (whole) => decompress(whole)
      void loadFrameDecompressor().then((loaded) => (current = loaded))
    }
    return current(frame, index, offset, declared)
  }
}
