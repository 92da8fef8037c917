/**
 * The human-readable `dsh-lens cost FILE` report: the total and what it is made of (steps, summary calls, cache
 * breaks), by model and by turn, each compaction's pay-back sentence, the costliest steps and every break, and the
 * notes (what the figures leave out). `costLine` is the one line `dsh-lens check` prints.
 */

import { formatMoney, payBackSentence, type SessionCost, type StepCost } from '../core/index.ts'

const count = (n: number): string => n.toLocaleString('en-US')
const plural = (n: number, word: string): string => `${count(n)} ${word}${n === 1 ? '' : 's'}`
/** Steps and breaks are small sums: four decimals, still never hiding a non-zero one. */
const fine = (n: number, cost: SessionCost): string => formatMoney(n, cost.currency, 4)

/** `¥0.42 (estimate, rate card 2026-12-07; 2 steps unpriced)`: the total in one line. */
export function costLine(cost: SessionCost): string {
  const t = cost.totals
  const unpriced = t.unpricedSteps > 0 ? `; ${plural(t.unpricedSteps, 'step')} without a price` : ''
  return `${formatMoney(t.cost.total, cost.currency)} (estimate, ${cost.currency}, rate card ${cost.rateCard.version}${unpriced}; cache breaks ${formatMoney(t.breakCost, cost.currency)})`
}

/**
 * `check`'s line: the total in both of the card's currencies (each as published, never converted), what the cache
 * breaks cost, and the steps a currency has no price for: `¥0.03 / $0.01 (an estimate, rate card 2026-12-07; …)`.
 */
export function checkCostLine(cny: SessionCost, usd: SessionCost): string {
  const both = (a: number, b: number) => `${formatMoney(a, 'CNY')} / ${formatMoney(b, 'USD')}`
  const missing = [cny, usd]
    .filter((c) => c.totals.unpricedSteps > 0)
    .map((c) => `${c.totals.unpricedSteps} of ${plural(c.steps.length, 'step')} without a ${c.currency} price`)
  return `${both(cny.totals.cost.total, usd.totals.cost.total)} (an estimate, rate card ${cny.rateCard.version}; cache breaks ${both(cny.totals.breakCost, usd.totals.breakCost)}${missing.length > 0 ? `; ${missing.join(', ')}` : ''})`
}

function stepLine(s: StepCost, cost: SessionCost): string {
  const tokens =
    s.tokens === null ? 'no usage' : `in ${count(s.tokens.input)} hit ${count(s.tokens.cacheRead)} out ${count(s.tokens.output)}`
  const price = s.cost === null ? `no price: ${s.unpriced ?? ''}` : `${fine(s.cost.total, cost)} ${s.period}`
  const model = s.billedModel !== null && s.billedModel !== s.model ? `${s.model} → ${s.billedModel}` : (s.model ?? '?')
  return `    ${s.label.padEnd(8)} ${model}  ${tokens}  ${price}`
}

export function costReport(path: string, cost: SessionCost): string {
  const t = cost.totals
  const out: string[] = [path]
  out.push(`  cost         ${costLine(cost)}`)
  out.push(
    `  calls        ${plural(cost.steps.length, 'step')} ${fine(t.stepsCost.total, cost)}, ${plural(cost.summaries.length, 'compaction summary call')} ${fine(t.summariesCost.total, cost)}`,
  )
  if (t.tokens !== null)
    out.push(
      `  tokens       in ${count(t.tokens.input)} (cache misses), cache read ${count(t.tokens.cacheRead)}${t.tokens.cacheWrite > 0 ? `, cache write ${count(t.tokens.cacheWrite)}` : ''}, out ${count(t.tokens.output)}${t.tokens.reasoning !== null ? ` (reasoning ${count(t.tokens.reasoning)})` : ''}; hit ${t.cacheHit === null ? '—' : `${(t.cacheHit * 100).toFixed(1)}%`}`,
    )
  out.push(`  breaks       ${plural(t.breaks, 'cache break')} cost ${fine(t.breakCost, cost)}`)
  for (const m of cost.byModel)
    out.push(
      `  model        ${m.provider ?? '?'} ${m.model ?? '?'}${m.billedAs.length > 0 ? ` (billed as ${m.billedAs.join(', ')})` : ''}: ${plural(m.steps, 'step')}, ${plural(m.summaries, 'summary call')}, ${fine(m.cost.total, cost)}`,
    )
  for (const turn of cost.byTurn)
    out.push(
      `  turn ${String(turn.turn).padEnd(7)} ${fine(turn.cost.total, cost)} over ${plural(turn.steps, 'step')}, cache breaks ${fine(turn.breakCost, cost)}`,
    )
  for (const c of cost.compactions) out.push(`  compaction   seq ${c.seq}: ${payBackSentence(c, cost.currency)}`)
  const costliest = cost.steps
    .filter((s) => s.cost !== null)
    .sort((a, b) => (b.cost?.total ?? 0) - (a.cost?.total ?? 0))
    .slice(0, 10)
  if (costliest.length > 0) {
    out.push(
      `  costliest steps${cost.steps.length > costliest.length ? ` (${costliest.length} of ${count(cost.steps.length)}; --json lists every one)` : ''}`,
    )
    for (const s of costliest) out.push(stepLine(s, cost))
  }
  const breaks = cost.steps.filter((s) => s.breakCause !== null)
  if (breaks.length > 0) {
    out.push(`  cache breaks`)
    for (const s of breaks.slice(0, 20))
      out.push(
        `    ${s.label.padEnd(8)} ${s.breakCost === null ? 'no price' : fine(s.breakCost, cost)} (${count(s.breakTokens ?? 0)} tokens billed again): ${s.breakCause}`,
      )
    if (breaks.length > 20) out.push(`    … ${count(breaks.length - 20)} more (--json)`)
  }
  if (cost.notes.length > 0) {
    out.push('  notes')
    for (const note of cost.notes) out.push(`    ${note}`)
  }
  return out.join('\n') + '\n'
}
