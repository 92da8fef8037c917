/**
 * Where two runs parted, in words: the first divergence's one sentence (`firstDivergence.message`), and the line a
 * reader sees first (the CLI's report, the Compare view's heading). Runs are called A and B, in the order given.
 */

import type { HeaderField } from '../request/request-header.ts'
import type { ForkBlock, ForkVerdict } from './fork-seed.ts'
import type { Lead, SidePoint } from './pair-compare.ts'

const stepName = (p: SidePoint): string => (p.turn === null ? 'before any step' : `turn ${p.turn} step ${p.step}`)

const both = (lead: Lead): string => `A seq ${lead.a.seq}, B seq ${lead.b.seq}`

/** The one side that has what the other lacks, and its seq. */
function present(lead: Lead): string {
  return lead.missing === 'a' ? `B (seq ${lead.b.seq})` : `A (seq ${lead.a.seq})`
}

/** The sentence of a divergence (no leading capital: it follows "they parted at …: "). */
export function leadSentence(lead: Lead, headerChanged: readonly HeaderField[]): string {
  switch (lead.kind) {
    case 'user-message':
      return lead.missing === null
        ? `the user said something else (${both(lead)})`
        : `only ${present(lead)} was sent this user message`
    case 'header':
      return headerChanged.length > 0
        ? `the request header differs in ${headerChanged.join(', ')} (${both(lead)})`
        : lead.missing === null
          ? `the instructions the harness sends differ (${both(lead)})`
          : `only ${present(lead)} was sent this instruction`
    case 'tool-result':
      return lead.missing === null
        ? `the same tool call came back different: the world differed (${both(lead)})`
        : `only ${present(lead)} got this tool result`
    case 'model-output':
      if (lead.missing !== null) return `only ${present(lead)} answered`
      return lead.inOutcome
        ? `the same request got a different answer (${both(lead)})`
        : `an earlier answer the model is sent differs (${both(lead)})`
    case 'surface-op':
      if (lead.replacedOn === 'both') return `A and B were sent different compactions or prunes here (${both(lead)})`
      return lead.replacedOn === 'a'
        ? `A compacted or pruned where B did not (A seq ${lead.a.seq} stands where B still sends seq ${lead.b.seq})`
        : `B compacted or pruned where A did not (B seq ${lead.b.seq} stands where A still sends seq ${lead.a.seq})`
    case 'length': {
      const [stopped, going, name, other] = lead.missing === 'a' ? [lead.a, lead.b, 'A', 'B'] : [lead.b, lead.a, 'B', 'A']
      return `${name} stopped (its last event is seq ${stopped.seq}) where ${other} goes on at ${stepName(going)} (seq ${going.seq})`
    }
  }
}

function forkWords(fork: ForkBlock | null, verdict: ForkVerdict): string {
  if (fork === null) return ''
  const seed = `${fork.seedLength} event${fork.seedLength === 1 ? '' : 's'}`
  if (verdict.child === 'both') return `A and B are forks of ${fork.parent} sharing its first ${seed}; `
  return `${verdict.child === 'b' ? 'B' : 'A'} is a fork of ${verdict.child === 'b' ? 'A' : 'B'} (its first ${seed} are ${verdict.child === 'b' ? "A's" : "B's"}); `
}

/** Where two steps are, as one phrase: `turn 2 step 1`, or each side's when they differ. */
function where(a: SidePoint, b: SidePoint): string {
  if (a.turn === b.turn && a.step === b.step) return stepName(a)
  return `${stepName(a)} of A and ${stepName(b)} of B`
}

/** The first line of a report: where A and B parted, or that they did not. */
export function partedLine(
  lead: { readonly lead: Lead; readonly sentence: string } | null,
  verdict: ForkVerdict,
  counts: { readonly steps: number; readonly turns: number },
): string {
  const fork = forkWords(verdict.fork, verdict)
  const subject = fork === '' ? 'A and B' : 'after the seed they'
  if (lead === null) {
    const { steps, turns } = counts
    return `${fork}${subject} are the same run: ${steps} step${steps === 1 ? '' : 's'} in ${turns} turn${turns === 1 ? '' : 's'}, every request and answer equal (ids and times aside)`
  }
  const l = lead.lead
  // A run that stopped has no step there: the place is the other run's.
  const at = l.kind === 'length' ? (l.missing === 'a' ? `${stepName(l.b)} of B` : `${stepName(l.a)} of A`) : where(l.a, l.b)
  return `${fork}${subject} parted at ${at}: ${lead.sentence}`
}
