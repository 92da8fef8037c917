/**
 * Each run's totals side by side with B − A: turns, steps, tool calls (by name, with failures), tokens, compactions and
 * prunes, model, tool and wall time, and cost when a rate card priced them. The figures are the core's (`totals` of
 * `dsh-lens diff --json`).
 *
 * Contract: `[data-testid=compare-totals]`, one `tr[data-figure]` per row (the JSON's key: `turns`, `inputTokens`, ...;
 * `toolCalls` for all calls, `tool:NAME` and `tool:NAME:failed` per tool) with `data-a`, `data-b`, `data-delta` (the
 * raw numbers, empty where the log does not say).
 */

import { useWorkerAnswer } from '../shared/use-worker-answer.ts'
import { deltaText, figureText, totalsRows } from './compare-words.ts'

const raw = (value: number | null): string => (value === null ? '' : String(value))

export function CompareTotalsTable({ id }: { id: number }) {
  const totals = useWorkerAnswer(`compare:${id}:totals`, (ask) => ask('compare-totals', {}))
  const rows = totals === undefined ? [] : totalsRows(totals)
  return (
    <section aria-label="Totals" className="flex min-h-0 flex-1 flex-col bg-panel">
      <h3 className="border-b border-line bg-raised px-2 py-1 text-xs font-semibold uppercase tracking-wide text-muted">
        Totals
      </h3>
      <div className="min-h-0 flex-1 overflow-auto" tabIndex={0} aria-label="Totals of A and B, and B − A">
        {totals === undefined ? (
          <p className="p-2 text-xs text-muted" role="status">
            Adding up…
          </p>
        ) : (
          <table className="w-full text-xs tabular-nums" data-testid="compare-totals">
            <thead className="sticky top-0 bg-panel text-muted">
              <tr>
                <th scope="col" className="px-2 py-0.5 text-left font-normal">
                  figure
                </th>
                <th scope="col" className="px-2 py-0.5 text-right font-normal">
                  A
                </th>
                <th scope="col" className="px-2 py-0.5 text-right font-normal">
                  B
                </th>
                <th scope="col" className="px-2 py-0.5 text-right font-normal">
                  B − A
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr
                  key={row.key}
                  data-figure={row.key}
                  data-a={raw(row.a)}
                  data-b={raw(row.b)}
                  data-delta={raw(row.delta)}
                  className="border-t border-line"
                >
                  <th scope="row" className={`py-0.5 pr-2 text-left font-normal ${row.nested ? 'pl-5 text-muted' : 'pl-2'}`}>
                    {row.label}
                  </th>
                  <td className="px-2 py-0.5 text-right">{figureText(row.a, row.unit)}</td>
                  <td className="px-2 py-0.5 text-right">{figureText(row.b, row.unit)}</td>
                  <td
                    className={`px-2 py-0.5 text-right font-mono ${row.delta === null || row.delta === 0 ? 'text-muted' : 'text-ink'}`}
                  >
                    {deltaText(row.delta, row.unit)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </section>
  )
}
