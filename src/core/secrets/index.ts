/** Secrets in a session: the detectors, the scan of a log (asked for, never at load), masks and hashes. */

export { SECRET_KINDS, SECRET_RULES, detectSecrets, type SecretKind, type SecretRule, type SecretHit } from './detectors.ts'
export { scanSecrets, SecretScan, type SecretFinding, type SecretValue } from './log-secrets.ts'
export { secretHash, placeholder, isSecretHash } from './secret-hash.ts'
export { maskSecret } from './mask.ts'
export { escapedForms, jsonEscape } from './escapes.ts'
export { readStreams, type DeltaStream, type StreamMember } from './delta-streams.ts'
export { SECRET_KIND_LABELS, secretKindLabel } from './kind-labels.ts'
