/**
 * Share…'s bundle, made in the worker: each reviewed log redacted (unless the user said not to), gzip-compressed and
 * base64-encoded into the bundle's data (the core's `BundleData`, the format `dsh-lens bundle` writes), and the
 * viewer's template (`dsh-lens-bundle.html`, fetched from the page's own server) filled with it: one HTML file, as a
 * Blob. A redacted zstd log is written as zstd frames of raw blocks (no zstd compressor runs in a page), which the
 * bundle's gzip compresses.
 */

import {
  BUNDLE_DATA_SLOT,
  BUNDLE_FORMAT,
  fillBundleTemplate,
  hasZstdMagic,
  loadContentChecksum,
  rawZstdFrame,
  redactLog,
  type BundleData,
  type BundleLog,
  type BundleRedaction,
} from '../core/index.ts'
import { yieldToEventLoop } from '../platform/yield-to-event-loop.ts'
import type { ShareBuildArgs, ShareBundleFile } from '../protocol/share.ts'
import type { PreparedLog, ShareFetch } from './share-logs.ts'

/** Who made a bundle written by the page (the CLI writes its version). */
export const PAGE_MADE_BY = 'dsh-lens viewer (Share…)'

export class TemplateMissingError extends Error {}

/** The template, or an error that says what a page without one can do instead. */
export async function fetchTemplate(io: ShareFetch, url: string): Promise<string> {
  const text = await io.text(url)
  if (text === null || !text.includes(BUNDLE_DATA_SLOT))
    throw new TemplateMissingError(
      'this page’s server has no bundle template (dsh-lens-bundle.html, made by `npm run build`): open the log with ' +
        '`npx dsh-lens FILE`, or write the bundle with `npx dsh-lens bundle FILE -o session.html`',
    )
  return text
}

async function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new CompressionStream('gzip'))
  return new Uint8Array(await new Response(stream).arrayBuffer())
}

/** Base64 in pieces of whole 3-byte groups (a string per piece, never one argument list of the whole). */
export function base64(bytes: Uint8Array): string {
  const native = (bytes as Uint8Array & { toBase64?: () => string }).toBase64
  if (typeof native === 'function') return native.call(bytes)
  const parts: string[] = []
  for (let at = 0; at < bytes.length; at += 0x6000) parts.push(btoa(String.fromCharCode(...bytes.subarray(at, at + 0x6000))))
  return parts.join('')
}

/** `session.jsonl.zstd` → `session.html`: the bundle's file name from its root log's. */
export function bundleFileName(path: string): string {
  const name = path.split('/').pop() ?? path
  const stem = name.replace(/(\.jsonl)?(\.zstd|\.zst)?$/i, '')
  return `${stem === '' ? 'session' : stem}.html`
}

export async function buildBundle(
  logs: readonly PreparedLog[],
  session: BundleData['session'],
  template: string,
  args: ShareBuildArgs,
  madeAt: Date = new Date(),
): Promise<ShareBundleFile> {
  const checksum = await loadContentChecksum()
  const allow = new Set(args.allow)
  const totals = { count: 0, secrets: 0, allowed: 0 }
  const out: BundleLog[] = []
  for (const log of logs) {
    const bytes = await log.bytes()
    let body = bytes
    let encoding: BundleLog['encoding'] = hasZstdMagic(bytes) ? 'zstd' : 'jsonl'
    if (args.redact) {
      const redacted = redactLog(bytes, log.log, log.scanned.scan, {
        allow,
        redactPaths: args.redactPaths,
        encodeFrame: (plaintext) => rawZstdFrame(plaintext, checksum),
        checksum,
      })
      body = redacted.bytes
      encoding = redacted.encoding
      totals.count += redacted.redactions
      totals.secrets += redacted.secrets
      totals.allowed += redacted.allowed
    }
    await yieldToEventLoop()
    out.push({ path: log.path, sessionId: log.sessionId, encoding, gzipBase64: base64(await gzip(body)) })
  }
  const redaction: BundleRedaction = {
    mode: args.redact ? 'redacted' : 'not-redacted',
    paths: args.redact && args.redactPaths,
    ...totals,
  }
  const data: BundleData = {
    format: BUNDLE_FORMAT,
    madeAt: madeAt.toISOString(),
    session,
    redaction,
    logs: out,
    madeBy: PAGE_MADE_BY,
  }
  const html = fillBundleTemplate(template, data)
  return {
    blob: new Blob([html], { type: 'text/html' }),
    name: bundleFileName((logs[0] as PreparedLog).path),
    logs: out.length,
    redaction,
  }
}
