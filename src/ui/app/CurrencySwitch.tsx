/**
 * The currency every amount is shown in (issue 37): CNY or USD, as DeepSeek publishes each (never converted). Kept in
 * the URL (`?currency=`) and local storage (use-remembered-currency.ts).
 * Contract: `[data-testid=currency-switch]` (`data-currency`), buttons `[data-testid=currency-CNY]`, `currency-USD`.
 */

import type { Currency } from '../../core/index.ts'
import { useLensStore } from '../../store/lens-store-context.tsx'

const CHOICES: readonly { currency: Currency; label: string; title: string }[] = [
  { currency: 'CNY', label: '¥ CNY', title: 'Amounts in yuan, at the prices DeepSeek publishes in CNY' },
  { currency: 'USD', label: '$ USD', title: 'Amounts in US dollars, at the prices DeepSeek publishes in USD' },
]

export function CurrencySwitch() {
  const currency = useLensStore((s) => s.currency)
  const setCurrency = useLensStore((s) => s.setCurrency)
  return (
    <span
      role="group"
      aria-label="Currency"
      data-testid="currency-switch"
      data-currency={currency}
      className="inline-flex shrink-0 overflow-hidden rounded border border-line text-xs"
    >
      {CHOICES.map((c) => (
        <button
          key={c.currency}
          type="button"
          data-testid={`currency-${c.currency}`}
          aria-pressed={currency === c.currency}
          title={c.title}
          onClick={() => setCurrency(c.currency)}
          className={`px-1.5 py-0.5 ${currency === c.currency ? 'bg-accent-soft font-semibold text-ink' : 'bg-raised text-muted hover:text-ink'}`}
        >
          {c.label}
        </button>
      ))}
    </span>
  )
}
