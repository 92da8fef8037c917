/**
 * The short hash that names a secret without showing it: the first 8 hex digits of its SHA-256 (the decoded value's
 * UTF-8). Equal secrets get equal hashes, so a reader of a redacted log still sees "the same key again", and the
 * allow list (`redact --allow HASH`) names a value by it. It identifies, it does not hide: a guessable password can
 * be confirmed against its hash (SECURITY.md). @noble/hashes: a synchronous, audited SHA-256 that the worker and the
 * CLI share (WebCrypto's digest is asynchronous).
 */

import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import type { SecretKind } from './detectors.ts'
import { PLACEHOLDER_START } from './detectors.ts'

export const HASH_DIGITS = 8

export function secretHash(value: string): string {
  return bytesToHex(sha256(utf8ToBytes(value))).slice(0, HASH_DIGITS)
}

/** What redaction writes in place of a secret: `[REDACTED:github-token:3f9a2c1b]`. */
export function placeholder(kind: SecretKind, hash: string): string {
  return `${PLACEHOLDER_START}${kind}:${hash}]`
}

/** Whether `text` is a hash as `secrets --json` prints it (for the allow list). */
export function isSecretHash(text: string): boolean {
  return new RegExp(`^[0-9a-f]{${HASH_DIGITS}}$`).test(text)
}
