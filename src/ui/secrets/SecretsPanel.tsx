/**
 * The Secrets answer (issue 39): the credentials the open log holds, found by the worker's scan (asked for when this
 * panel opens, never while the log loads), each place with its masked preview, where it stands, the masked text
 * around it, whether and when the model was sent it, and a link that lands on its event (the cursor and the
 * selection move there; a place in the session header says it has no event). Never a secret's value.
 *
 * Contract: `[data-testid=secrets]` with `data-state` (`scanning|ready|error`), `data-count` (places) and
 * `data-distinct` (secrets); one `[data-testid=secret-finding]` per place listed (SecretPlace.tsx);
 * `[data-testid=secret-link]` on each place with an event (`data-index`).
 */

import { useLensStore, useLensStoreApi } from '../../store/lens-store-context.tsx'
import type { SecretFindingView, SecretsAnswer } from '../../protocol/secrets.ts'
import { SecretPlace } from '../shared/SecretPlace.tsx'
import { formatCount } from '../shared/format-count.ts'
import { BUTTON } from '../shared/button-class.ts'

/** Places drawn at most (the answer holds more; the count is exact, Share… reviews every one). */
const SHOWN = 500

function headline(answer: SecretsAnswer): string {
  if (answer.total === 0) return `No secrets found in ${formatCount(answer.length)} events.`
  const secrets = answer.distinct.length
  const sent = answer.distinct.filter((g) => g.seenPlaces > 0).length
  const what = `${formatCount(secrets)} secret${secrets === 1 ? '' : 's'} in ${formatCount(answer.total)} place${answer.total === 1 ? '' : 's'}`
  const seen =
    sent === 0
      ? 'none was ever on the model surface'
      : `the model was sent ${sent === secrets ? (secrets === 1 ? 'it' : 'all of them') : `${formatCount(sent)} of them`}`
  return `${what}; ${seen}.`
}

function GoLink({ place }: { place: SecretFindingView }) {
  const store = useLensStoreApi()
  if (place.index < 0) return <span className="text-muted">not an event: nothing to land on</span>
  return (
    <button
      type="button"
      className={`${BUTTON} ml-auto`}
      data-testid="secret-link"
      data-index={place.index}
      title="move the cursor to this event and select it"
      onClick={() => store.getState().goToSecret(place.index)}
    >
      Go to #{place.seq ?? place.index}
    </button>
  )
}

export function SecretsPanel() {
  const store = useLensStoreApi()
  const view = useLensStore((s) => s.secrets)
  const generation = useLensStore((s) => s.loadGeneration)
  const length = useLensStore((s) => s.summary?.length ?? 0)
  const loadState = useLensStore((s) => s.loadState)
  const answer = view.generation === generation ? view.answer : null
  const state = view.error !== null ? 'error' : answer === null ? 'scanning' : 'ready'
  const status =
    view.error !== null
      ? `Could not scan this log: ${view.error}`
      : answer === null
        ? loadState === 'ready'
          ? 'Scanning this log for secrets…'
          : 'The log is still loading: it is scanned once it is read.'
        : headline(answer) +
          (answer.length < length ? ` Scanned through event ${formatCount(answer.length)}; the log has grown since.` : '')
  const shown = answer?.findings.slice(0, SHOWN) ?? []
  return (
    <section
      aria-label="Secrets"
      data-testid="secrets"
      data-state={state}
      data-count={answer?.total}
      data-distinct={answer?.distinct.length}
      className="flex max-h-[40vh] min-h-0 flex-col border-b border-line bg-panel"
    >
      <header className="flex flex-wrap items-center gap-2 px-3 py-1">
        <h2 className="text-sm font-semibold">Secrets</h2>
        <span
          role="status"
          className={`text-xs ${answer !== null && answer.total > 0 ? 'font-semibold text-danger' : 'text-muted'}`}
        >
          {status}
        </span>
        <span className="text-xs text-muted">Masked previews only: no secret is shown or sent to this page.</span>
        <button type="button" className={`${BUTTON} ml-auto`} onClick={() => store.getState().setSecretsOpen(false)}>
          Close
        </button>
      </header>
      {shown.length > 0 ? (
        <ul className="min-h-0 flex-1 divide-y divide-line overflow-y-auto border-t border-line" aria-label="Places">
          {shown.map((place, k) => (
            <SecretPlace key={k} place={place} link={<GoLink place={place} />} />
          ))}
          {answer !== null && answer.total > shown.length ? (
            <li className="px-3 py-1 text-xs text-muted">
              The first {formatCount(shown.length)} of {formatCount(answer.total)} places are listed; Share… reviews every one.
            </li>
          ) : null}
        </ul>
      ) : null}
    </section>
  )
}
