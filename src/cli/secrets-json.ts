/**
 * The `secrets --json` contract (docs/cli.md): `[{"seq","field","kind","masked","hash","seenByModel":[{"fromSeq",
 * "toSeq","steps"}]}]`, one entry per place a secret stands, in log order. `seenByModel`: the spans (inclusive seqs)
 * during which the event holding it was on the model surface, as search reports them, and the steps whose requests
 * carried it (`"2.1–4.3"`, `"2.1"`, or null when no request was built in the span); `[]` when the model never saw it.
 * Never a secret: `masked` shows the format's marker, two characters and the length.
 */

import {
  scanSecrets,
  stepMarks,
  stepsInRanges,
  stepsLabel,
  type LensLog,
  type SecretFinding,
  type SecretScan,
} from '../core/index.ts'

export interface SecretJson {
  seq: number | null
  field: string
  kind: string
  masked: string
  hash: string
  seenByModel: { fromSeq: number; toSeq: number; steps: string | null }[]
}

export function secretsJson(log: LensLog, scan: SecretScan = scanSecrets(log)): SecretJson[] {
  const seen = scan.findings.filter((f) => f.visible.length > 0)
  const marks = seen.length > 0 ? stepMarks(log) : []
  return scan.findings.map((f: SecretFinding) => ({
    seq: f.seq,
    field: f.field,
    kind: f.kind,
    masked: f.masked,
    hash: f.hash,
    seenByModel: stepsInRanges(log, f.visible, marks).map((s) => ({
      fromSeq: s.fromSeq,
      toSeq: s.toSeq,
      steps: stepsLabel(s.firstStep, s.lastStep),
    })),
  }))
}

/** `check`'s line: how many secrets the log holds, how many the model saw, and how to list them. */
export function secretsCheckLine(scan: SecretScan): string {
  const places = scan.findings.length
  if (places === 0) return '  secrets      none found'
  const distinct = scan.distinct
  const all = [...new Set(distinct.map((d) => d.kind))]
  const kinds = all.length > 4 ? `${all.slice(0, 4).join(', ')} and ${all.length - 4} more kinds` : all.join(', ')
  const seen = new Set(scan.findings.filter((f) => f.visible.length > 0).map((f) => f.hash)).size
  return `  secrets      ${distinct.length} secret(s) (${kinds}) in ${places} place(s), ${seen} sent to the model: \`dsh-lens secrets FILE --json\` lists them, \`dsh-lens redact\` removes them`
}
