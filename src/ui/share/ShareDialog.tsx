/**
 * Share… (issue 39): one HTML file to hand a session to someone, the viewer and the (redacted, compressed) log inline,
 * opening from disk with no server and no network. A review first, in the worker: every secret the bundle's logs
 * hold (kind, where, masked context, places), what will be removed, a value kept by hash, home paths as an option;
 * redaction is on unless the user says "no redaction", and the bundle's banner says which. Then the worker writes the
 * file and the page saves it. A modal dialog: Esc or Cancel closes it, focus goes back where it was.
 *
 * Contract: `[data-testid=share-dialog]` (`data-state`: `reviewing|ready|building|written|error`);
 * `[data-testid=share-redact]` / `[data-testid=share-no-redact]` (radios), `[data-testid=share-redact-paths]`,
 * `[data-testid=share-subagents]` (when the sessions drawer has the session's subagents);
 * `[data-testid=share-review]` with `data-secrets`, `data-places`, `data-kept`, `data-paths` (what the choices will
 * remove), its rows ShareSecretRow; `[data-testid=share-unavailable]` when the page's server has no bundle template;
 * `[data-testid=share-write]`; `[data-testid=share-written]` with `data-name` and `data-redactions` once saved.
 */

import { useMemo } from 'react'
import { useLensStore, useLensStoreApi } from '../../store/lens-store-context.tsx'
import { drawerSubagents } from '../../store/slices/share-slice.ts'
import { formatBytes } from '../shared/format-bytes.ts'
import { formatCount } from '../shared/format-count.ts'
import { saveBlob } from '../shared/save-blob.ts'
import { ModalDialog } from '../shared/ModalDialog.tsx'
import { VisibleText } from '../shared/VisibleText.tsx'
import { reviewGroups, shareCounts, type ShareCounts } from './share-counts.ts'
import { ShareSecretRow } from './ShareSecretRow.tsx'
import { BUTTON } from '../shared/button-class.ts'

const plural = (n: number, one: string, many = `${one}s`): string => `${formatCount(n)} ${n === 1 ? one : many}`

function reviewLine(counts: ShareCounts, redact: boolean, total: number): string {
  if (!redact)
    return total === 0
      ? 'Not redacted: no secret was found, and home paths stay as they are.'
      : `Not redacted: the file will hold ${plural(total, 'secret')} as logged.`
  if (counts.secrets === 0 && counts.kept === 0) return 'No secret was found: nothing to replace.'
  const parts = [`${plural(counts.secrets, 'secret')} in ${plural(counts.places, 'place')} will be replaced`]
  if (counts.kept > 0) parts.push(`${plural(counts.kept, 'secret')} kept as ${counts.kept === 1 ? 'it is' : 'they are'}`)
  return `${parts.join('; ')}.`
}

export function ShareDialog() {
  const store = useLensStoreApi()
  const share = useLensStore((s) => s.share)
  const subagents = useLensStore(
    (s) =>
      drawerSubagents(
        s.bundle.result,
        s.bundle.active !== null && s.bundle.active.generation === s.loadGeneration ? s.bundle.active.key : null,
      ).length,
  )
  const { review, options, allow, state } = share
  const groups = useMemo(() => (review === null ? [] : reviewGroups(review)), [review])
  const counts = review === null ? null : shareCounts(review, allow, options)
  const close = (): void => store.getState().closeShare()
  const write = async (): Promise<void> => {
    const file = await store.getState().writeBundle()
    if (file !== null) saveBlob(file.blob, file.name)
  }
  const set = store.getState().setShareOptions
  const root = review?.logs[0]
  const pathPlaces = review?.logs.reduce((n, l) => n + l.pathPlaces, 0) ?? 0
  return (
    <ModalDialog
      title="Share this session as one HTML file"
      titleId="share-title"
      scope="share"
      closeLabel="Cancel"
      onClose={close}
      sizeClass="max-h-[84vh] w-[min(52rem,94vw)]"
      topClass="pt-12"
      data={{ 'data-testid': 'share-dialog', 'data-state': state }}
    >
      <div className="min-h-0 flex-1 space-y-2 overflow-y-auto px-3 py-2 text-xs">
        <p className="text-muted">
          The viewer and the log in one file that opens from disk with no server and no network: attach it to a bug report or send
          it to a colleague. Secrets are found and replaced first.
        </p>
        {root !== undefined ? (
          <p data-testid="share-session">
            <span className="font-semibold">
              <VisibleText text={review?.session.title ?? root.path} />
            </span>
            {review?.session.id != null ? <span className="font-mono text-muted"> · {review.session.id}</span> : null} ·{' '}
            {plural(root.events, 'event')}
            {review !== null && review.logs.length > 1 ? ` · with ${plural(review.logs.length - 1, 'subagent log')}` : ''}
          </p>
        ) : null}
        {subagents > 0 ? (
          <label className="flex items-center gap-1">
            <input
              type="checkbox"
              data-testid="share-subagents"
              checked={options.withSubagents}
              disabled={state === 'reviewing' || state === 'building'}
              onChange={() => set({ withSubagents: !options.withSubagents })}
            />
            Include its {plural(subagents, 'subagent session')} (from the Sessions drawer)
          </label>
        ) : null}
        <fieldset className="space-y-1 rounded border border-line px-2 py-1">
          <legend className="px-1 font-semibold">Redaction</legend>
          <label className="flex items-center gap-1">
            <input
              type="radio"
              name="share-redaction"
              data-testid="share-redact"
              checked={options.redact}
              onChange={() => set({ redact: true })}
            />
            Redact secrets (recommended): each is replaced by <code className="font-mono">[REDACTED:kind:hash]</code>, equal
            secrets alike
          </label>
          <label className="flex items-center gap-1">
            <input
              type="radio"
              name="share-redaction"
              data-testid="share-no-redact"
              checked={!options.redact}
              onChange={() => set({ redact: false })}
            />
            No redaction: the file holds every secret as logged, and its banner says so
          </label>
          <label className="flex items-center gap-1">
            <input
              type="checkbox"
              data-testid="share-redact-paths"
              checked={options.redactPaths}
              disabled={!options.redact}
              onChange={() => set({ redactPaths: !options.redactPaths })}
            />
            Also replace home paths and user names (<code className="font-mono">/home/alice</code> →{' '}
            <code className="font-mono">/home/user</code>): {plural(pathPlaces, 'place')}
          </label>
        </fieldset>
        {review?.logs
          .filter((l) => l.note !== null)
          .map((l) => (
            <p key={l.path} className="text-muted" data-testid="share-note">
              <VisibleText text={l.note ?? ''} />
            </p>
          ))}
        {state === 'reviewing' ? (
          <p role="status" className="text-muted">
            Reading the log again and looking for secrets…
          </p>
        ) : null}
        {review?.templateMissing != null ? (
          <p className="rounded border border-warn bg-warn-soft px-2 py-1" data-testid="share-unavailable">
            Share… cannot write a file from this page: <VisibleText text={review.templateMissing} />.
          </p>
        ) : null}
        {counts !== null ? (
          <section
            aria-label="What the bundle will hold"
            data-testid="share-review"
            data-secrets={counts.secrets}
            data-places={counts.places}
            data-kept={counts.kept}
            data-paths={counts.paths}
            className="rounded border border-line"
          >
            <h3 className={`px-3 py-1 font-semibold ${options.redact ? '' : 'text-danger'}`}>
              {reviewLine(counts, options.redact, groups.length)}
              {counts.paths > 0
                ? ` ${plural(counts.paths, 'home path or user name', 'home paths and user names')} replaced.`
                : ''}
            </h3>
            {groups.length > 0 ? (
              <ul className="divide-y divide-line border-t border-line">
                {groups.map((group) => (
                  <ShareSecretRow
                    key={group.hash}
                    group={group}
                    kept={allow.includes(group.hash)}
                    redact={options.redact}
                    onToggle={() => store.getState().toggleAllow(group.hash)}
                  />
                ))}
              </ul>
            ) : null}
          </section>
        ) : null}
        {share.error !== null ? (
          <p role="alert" className="rounded border border-danger bg-danger-soft px-2 py-1">
            <VisibleText text={share.error} />
          </p>
        ) : null}
      </div>
      <footer className="flex flex-wrap items-center gap-2 border-t border-line bg-raised px-3 py-1.5 text-xs">
        {share.written !== null ? (
          <span
            role="status"
            data-testid="share-written"
            data-name={share.written.name}
            data-redactions={share.written.redaction.count}
            data-mode={share.written.redaction.mode}
          >
            Saved <span className="font-mono">{share.written.name}</span> ({formatBytes(share.written.bytes)},{' '}
            {plural(share.written.logs, 'log')}):{' '}
            {share.written.redaction.mode === 'redacted'
              ? `${plural(share.written.redaction.count, 'replacement')} of ${plural(share.written.redaction.secrets, 'secret')}`
              : 'NOT redacted'}
            .
          </span>
        ) : null}
        <button
          type="button"
          className={`${BUTTON} ml-auto font-semibold`}
          data-testid="share-write"
          disabled={review === null || review.templateMissing !== null || state === 'building'}
          onClick={() => void write()}
        >
          {state === 'building' ? 'Writing…' : options.redact ? 'Write redacted bundle' : 'Write bundle, not redacted'}
        </button>
      </footer>
    </ModalDialog>
  )
}
