/**
 * A hit's text, read back from its log: the index keeps only the words (a contentless FTS5 table), so a snippet
 * reads the event's record at its place (a zstd frame, or a JSONL line) and makes its text again with the core
 * (`documentTextAt`, which checks the record is still that event). Decoded frames are kept a while (the same hits
 * come back as a query is typed), within a byte budget. Synchronous: a search answers in one call.
 */

import { closeSync, openSync, readSync } from 'node:fs'
import { documentTextAt, framePlaintext, type ContentChecksum } from '../../core/index.ts'

/** A document as stored: where to read it (or its text, when it cannot be read back alone). */
export interface StoredText {
  readonly path: string
  readonly seq: number
  readonly type: string
  readonly frameAt: number | null
  readonly frameEnd: number | null
  readonly lineAt: number | null
  readonly text: string | null
}

/** Plaintext of decoded frames kept, at most. */
const CACHE_BYTES = 32 << 20
/** A JSONL record is read in steps of this much until its newline; a record longer than the cap is not read back. */
const LINE_STEP = 64 << 10
const LINE_CAP = 64 << 20

export class DocumentTexts {
  private readonly frames = new Map<string, Uint8Array>()
  private cachedBytes = 0

  constructor(private readonly checksum: ContentChecksum | undefined) {}

  /** The document's text, or null when its log no longer holds that event where the index says. */
  textOf(doc: StoredText): string | null {
    if (doc.text !== null) return doc.text
    if (doc.lineAt === null) return null
    try {
      if (doc.frameAt === null || doc.frameAt < 0) return this.fromLine(doc, doc.lineAt)
      const plaintext = this.frame(doc.path, doc.frameAt, doc.frameEnd ?? doc.frameAt)
      return plaintext === null ? null : documentTextAt(plaintext, doc.lineAt, doc)
    } catch {
      // Unreadable now (removed, permissions): no text, the hit still stands.
      return null
    }
  }

  clear(): void {
    this.frames.clear()
    this.cachedBytes = 0
  }

  private frame(path: string, at: number, end: number): Uint8Array | null {
    const key = `${path}\0${at}`
    const cached = this.frames.get(key)
    if (cached !== undefined) {
      // Most recently used last.
      this.frames.delete(key)
      this.frames.set(key, cached)
      return cached
    }
    if (end <= at || end - at > LINE_CAP) return null
    const bytes = readAt(path, at, end - at)
    const plaintext = bytes.length === end - at ? framePlaintext(bytes, this.checksum) : null
    if (plaintext === null) return null
    this.frames.set(key, plaintext)
    this.cachedBytes += plaintext.length
    for (const [k, v] of this.frames) {
      if (this.cachedBytes <= CACHE_BYTES) break
      this.frames.delete(k)
      this.cachedBytes -= v.length
    }
    return plaintext
  }

  private fromLine(doc: StoredText, at: number): string | null {
    for (let want = LINE_STEP; want <= LINE_CAP; want *= 4) {
      const bytes = readAt(doc.path, at, want)
      if (bytes.includes(0x0a) || bytes.length < want) return documentTextAt(bytes, 0, doc)
    }
    return null
  }
}

function readAt(path: string, at: number, length: number): Uint8Array {
  const fd = openSync(path, 'r')
  try {
    const buffer = new Uint8Array(length)
    const read = readSync(fd, buffer, 0, length, at)
    return buffer.subarray(0, read)
  } finally {
    closeSync(fd)
  }
}
