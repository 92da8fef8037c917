/** Redaction: a log's copy with its secrets (and optionally home paths) replaced, the same session in every other way. */

export { redactLog, RedactionError, type RedactOptions, type RedactedLog } from './redact-log.ts'
export { rawZstdFrame } from './zstd-raw-frame.ts'
export { homeUserNames, homePathRules, type PathRule } from './home-paths.ts'
