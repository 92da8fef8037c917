/**
 * `dsh-lens secrets FILE --json` (the findings: secrets-json.ts) and `dsh-lens redact FILE -o OUT [--allow HASH]...
 * [--redact-paths]` (the redacted copy). Neither ever prints a secret: findings are masked, and messages name a
 * secret by its kind and hash.
 */

import { existsSync, readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs'
import * as zlib from 'node:zlib'
import { isSecretHash, loadContentChecksum, rawZstdFrame, redactLog, scanSecrets, type RedactedLog } from '../core/index.ts'
import { writeJsonLine } from './json-stream.ts'
import { readLog } from './read-log.ts'
import { secretsJson } from './secrets-json.ts'

export class SecretsUsageError extends Error {}

export async function runSecrets(args: readonly string[]): Promise<number> {
  const positional = args.filter((a) => !a.startsWith('--'))
  if (positional.length !== 1) throw new SecretsUsageError('secrets takes exactly one FILE')
  if (!args.includes('--json')) throw new SecretsUsageError('secrets prints JSON only: pass --json')
  const log = await readLog(positional[0] as string)
  await writeJsonLine(process.stdout, secretsJson(log))
  return 0
}

type ZstdCompress = (input: Uint8Array, options: { params: Record<number, number> }) => Uint8Array

/**
 * How a redacted zstd log's frames are written: Node's own zstd (>= 22.15, the harness's compressor, level 3, content
 * size and checksum in every frame), else frames of raw blocks (Node 20 has no zstd encoder): valid zstd at the size
 * of the plain text.
 */
export async function zstdFrameEncoder(): Promise<{ encode: (plaintext: Uint8Array) => Uint8Array; compressed: boolean }> {
  const compress = (zlib as unknown as { zstdCompressSync?: ZstdCompress }).zstdCompressSync
  const constants = zlib.constants as unknown as Record<string, number>
  if (typeof compress === 'function' && constants['ZSTD_c_checksumFlag'] !== undefined) {
    const params = { [constants['ZSTD_c_checksumFlag']]: 1, [constants['ZSTD_c_contentSizeFlag'] as number]: 1 }
    return { encode: (plaintext) => new Uint8Array(compress(plaintext, { params })), compressed: true }
  }
  const checksum = await loadContentChecksum()
  return { encode: (plaintext) => rawZstdFrame(plaintext, checksum), compressed: false }
}

export interface RedactRequest {
  readonly allow: Set<string>
  readonly redactPaths: boolean
}

/** Read FILE, redact it; the log and the result. */
export async function redactFile(file: string, request: RedactRequest): Promise<{ out: RedactedLog; compressed: boolean }> {
  const log = await readLog(file)
  const bytes = new Uint8Array(readFileSync(file))
  const scan = scanSecrets(log)
  const encoder = await zstdFrameEncoder()
  const out = redactLog(bytes, log, scan, {
    allow: request.allow,
    redactPaths: request.redactPaths,
    encodeFrame: encoder.encode,
    checksum: await loadContentChecksum(),
  })
  return { out, compressed: encoder.compressed }
}

/** `--allow HASH` (repeatable), each an 8-hex hash as `secrets --json` prints it. */
export function allowList(args: readonly string[]): Set<string> {
  const allow = new Set<string>()
  for (const [i, a] of args.entries()) {
    if (a !== '--allow') continue
    const hash = args[i + 1]
    if (hash === undefined || !isSecretHash(hash))
      throw new SecretsUsageError('--allow takes a HASH as `secrets --json` prints it (8 hex digits)')
    allow.add(hash)
  }
  return allow
}

function sameFile(a: string, b: string): boolean {
  return existsSync(b) && realpathSync(a) === realpathSync(b)
}

export function summary(out: RedactedLog, compressed: boolean): string {
  const parts = [`${out.redactions} replacement(s) of ${out.secrets} secret(s)`]
  if (out.allowed > 0) parts.push(`${out.allowed} kept by --allow`)
  if (out.paths > 0) parts.push(`${out.paths} home path(s) and user name(s)`)
  let text = parts.join(', ')
  if (out.encoding === 'zstd' && !compressed)
    text += '; zstd frames stored uncompressed (this Node has no zstd encoder: Node >= 22.15 compresses them)'
  return text
}

export async function runRedact(args: readonly string[]): Promise<number> {
  const valueFlags = new Set(['-o', '--out', '--allow'])
  const positional = args.filter((a, i) => !a.startsWith('-') && !valueFlags.has(args[i - 1] ?? ''))
  if (positional.length !== 1) throw new SecretsUsageError('redact takes exactly one FILE')
  const file = positional[0] as string
  const o = args.findIndex((a) => a === '-o' || a === '--out')
  const target = o === -1 ? undefined : args[o + 1]
  if (target === undefined) throw new SecretsUsageError('redact needs -o OUT (it never writes over its input)')
  if (file === '-') throw new SecretsUsageError('redact reads a FILE, not standard input')
  const allow = allowList(args)
  if (existsSync(file) && sameFile(file, target)) {
    process.stderr.write(`dsh-lens: refusing to write the redacted log over its input ${file}: name another -o OUT\n`)
    return 2
  }
  const { out, compressed } = await redactFile(file, { allow, redactPaths: args.includes('--redact-paths') })
  const tmp = `${target}.tmp-${process.pid}`
  writeFileSync(tmp, out.bytes)
  renameSync(tmp, target)
  process.stderr.write(`dsh-lens: wrote ${target}: ${summary(out, compressed)}\n`)
  return 0
}
