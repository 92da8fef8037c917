/**
 * Complete zstd frames decoded by libzstd compiled to WebAssembly (zstddec): several times faster than fzstd, which
 * was most of a zstd log's load. The module is compiled synchronously at the first frame a thread decodes (a few
 * ms): compiled asynchronously, it arrived late in a `?log=` load whose threads were busy, and many frames had gone
 * through fzstd by then.
 *
 * fzstd stays the reference for everything but the happy path. libzstd is used only for a frame that declares its
 * content size (the harness's one-shot compressor always does) of at most WASM_FRAME_MAX bytes, and its output is
 * kept only when it is exactly that size; zstddec reports a libzstd error as a short result, so any frame libzstd
 * refuses (corrupt data, its own checksum check) is decoded again by fzstd, which throws what it always threw. A
 * valid frame decodes to the same bytes either way (zstd is a format, not an implementation), so verdicts, error
 * texts and plaintext are exactly those of `decompress(frame)`.
 */

import { decompress } from './vendor/fzstd.js'
import { ZSTDDecoder } from 'zstddec'
import type { CheckedPlaintext, FrameDecompressor } from './zstd-container.ts'

/**
 * Larger declared frames go to fzstd: libzstd's output buffer lives in the module's memory, which only grows, and a
 * harness append batch is kilobytes. (A size the blocks cannot hold never gets here: the container refuses it.)
 */
export const WASM_FRAME_MAX = 16 * 1024 * 1024

/** The one warning this module writes (tests look for it). */
export const LIBZSTD_UNAVAILABLE = 'dsh-lens: libzstd (WebAssembly) could not be loaded; zstd frames decode with fzstd'

/** The URL zstddec's `init()` fetches its embedded module from. */
const WASM_DATA_URL = 'data:application/wasm;base64,'

type Fetch = (input: unknown, init?: unknown) => Promise<unknown>
type Instance = object
/** What this module needs of the platform (the core is compiled without DOM or Node types). */
interface Platform {
  fetch?: Fetch
  atob?: (base64: string) => string
  console?: { warn(message: string): void }
  WebAssembly?: {
    Module: new (bytes: Uint8Array) => object
    Instance: new (module: object, imports: object) => Instance
  }
}
const platform = globalThis as unknown as Platform

/**
 * zstddec's module, as bytes. zstddec only offers `init()`, which fetches it from a `data:` URL and compiles it
 * asynchronously; a `data:` fetch would also be refused by the viewer's Content-Security-Policy (`connect-src
 * 'self'`). For that one synchronous call a fetch that keeps the URL's text and never answers stands in (any other
 * URL goes to the real fetch), and the text is decoded here.
 */
function embeddedModule(decoder: ZSTDDecoder): Uint8Array {
  const realFetch = platform.fetch
  const atob = platform.atob
  if (realFetch === undefined || atob === undefined) throw new Error('this platform has no fetch or atob')
  let base64: string | null = null
  platform.fetch = (input, init) => {
    if (typeof input !== 'string' || !input.startsWith(WASM_DATA_URL)) return realFetch(input, init)
    base64 = input.slice(WASM_DATA_URL.length)
    return new Promise(() => undefined)
  }
  try {
    void decoder.init()
  } finally {
    platform.fetch = realFetch
  }
  if (base64 === null) throw new Error('zstddec did not ask for its module')
  const text = atob(base64)
  const bytes = new Uint8Array(text.length)
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i)
  return bytes
}

/**
 * The module compiled and instantiated synchronously (allowed in workers and Node; this never runs on a page's
 * main thread), handed to zstddec through `_init`, the step its own `init()` ends with. Its one import is the
 * memory-growth hook, which must refresh zstddec's view of the memory: `_init` again does exactly that.
 */
function instantiate(): ZSTDDecoder {
  const wasm = platform.WebAssembly
  if (wasm === undefined) throw new Error('this platform has no WebAssembly')
  const decoder = new ZSTDDecoder()
  const module = new wasm.Module(embeddedModule(decoder))
  let instance: Instance | null = null
  const imports = { env: { emscripten_notify_memory_growth: () => decoder._init({ module, instance } as never) } }
  instance = new wasm.Instance(module, imports)
  decoder._init({ module, instance } as never)
  return decoder
}

let loaded: ZSTDDecoder | null | undefined

/** zstddec's decoder for this thread, made at the first call; null where WebAssembly cannot be compiled. */
export function zstdDecoder(): ZSTDDecoder | null {
  if (loaded !== undefined) return loaded
  try {
    loaded = instantiate()
  } catch (error) {
    // Said once, so a policy or platform that stops the compile is seen (the answers are the same without it).
    platform.console?.warn(`${LIBZSTD_UNAVAILABLE}: ${String(error)}`)
    loaded = null
  }
  return loaded
}

/**
 * One frame: libzstd when it can answer exactly, else fzstd (see the module comment). libzstd checks a frame's
 * content checksum as it decodes and refuses the frame when it differs, so its plaintext comes back marked checked.
 */
export function wasmFrameDecompressor(decoder: ZSTDDecoder): FrameDecompressor {
  return (frame, _index, _offset, declared) => {
    if (declared !== undefined && declared > 0 && declared <= WASM_FRAME_MAX) {
      const plaintext = decoder.decode(frame, declared)
      if (plaintext.length === declared) return { plaintext, checksumChecked: true } satisfies CheckedPlaintext
    }
    return decompress(frame)
  }
}

/** fzstd alone: what every other decompressor must equal (the tests' reference; the hang guard's test). */
export const fzstdFrameDecompressor: FrameDecompressor = (frame) => decompress(frame)

/**
 * ZstdContainer's frame decoder unless told otherwise: libzstd, compiled at the thread's first zstd frame (a plain
 * JSONL log never pays for it), or fzstd alone where it cannot be (the same plaintext, slower).
 */
export function libzstdFrameDecompressor(): FrameDecompressor {
  let decode: FrameDecompressor | null = null
  return (frame, index, offset, declared) => {
    if (decode === null) {
      const decoder = zstdDecoder()
      decode = decoder === null ? fzstdFrameDecompressor : wasmFrameDecompressor(decoder)
    }
    return decode(frame, index, offset, declared)
  }
}
