/**
 * The two platform APIs the pure core relies on. Both exist in browsers, workers
 * and Node 20; the core's tsconfig has no DOM lib and no Node types, so they are
 * declared here instead, to exactly the surface the core uses.
 */
interface TextDecoderOptions {
  fatal?: boolean
  ignoreBOM?: boolean
}
declare class TextDecoder {
  constructor(label?: string, options?: TextDecoderOptions)
  decode(input?: Uint8Array, options?: { stream?: boolean }): string
}
declare class TextEncoder {
  encode(input?: string): Uint8Array
}
