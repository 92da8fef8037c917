/**
 * The sessions home's content search: every served session's text (the server's content index), distinct from the
 * title filter beside it. The index builds in the background the first time the home is shown, with a progress bar;
 * the home stays usable meanwhile, and a search before the build is done says how much is indexed. A hit opens its
 * session at that event, with the query in the viewer's search (the term marked there).
 *
 * Contract: `[data-testid=home-search]` (the box; `data-index-state` idle|building|ready|unavailable; disabled when
 * unavailable, `[data-testid=index-unavailable]` then says why in place of the results), `[data-testid=index-line]` (one line
 * high in every state, `data-state` waiting|building|ready: no row below it moves), holding `[data-testid=index-progress]` while the index builds
 * (`data-done`, `data-total`), `[data-testid=home-search-results]` (`data-count`: hits listed, `data-state`
 * searching|done|refused, `data-order` strength|recent: see docs/find.md) with one `[data-testid=search-hit]` per hit (`data-session-id`, `data-seq`, `data-surface`).
 */

import { useEffect } from 'react'
import type { ContentHit, ContentHitSession, IndexProgressView } from '../../live/protocol.ts'
import { useLensStore } from '../../store/lens-store-context.tsx'
import { formatCount } from '../shared/format-count.ts'
import { HighlightedSnippet } from '../shared/HighlightedSnippet.tsx'
import { VisibleText } from '../shared/VisibleText.tsx'

/** Said when the words are in too many events to rank them all (docs/find.md): the sessions come newest first. */
const RECENT_ORDER = ' · newest sessions first: the words are in too many events to rank them all'

const SURFACE_WORDS: Record<ContentHit['surface'], string> = {
  current: 'on the surface',
  shadowed: 'shadowed',
  'log-only': 'log only',
}

const SURFACE_TITLES: Record<ContentHit['surface'], string> = {
  current: 'the model still saw this at the end of the session',
  shadowed: 'a replacement (a compaction, a pruned result) took this off the model surface',
  'log-only': 'in the log, never on the model surface',
}

/** A server without an index (or whose index cannot open) says why: a state of this server, not a lost connection. */
function IndexUnavailable({ index }: { index: IndexProgressView }) {
  return (
    <p className="mt-2 text-xs text-muted" data-testid="index-unavailable" role="status">
      Content search is unavailable here: {index.message ?? 'this server keeps no content index'}
    </p>
  )
}

/**
 * The line under the box, one line high in every state: the build's progress, then what is searchable. It used to
 * appear with the build and go when it was done, and every row of the home below it moved by its height: a click
 * aimed at a row's button in that moment landed on another row (an e2e test's "vs parent" click was lost so).
 */
function IndexLine({ index }: { index: IndexProgressView | null }) {
  const state = index === null ? 'waiting' : index.state === 'ready' ? 'ready' : 'building'
  return (
    <div
      className="mt-2 flex h-4 min-w-0 items-center gap-2 overflow-hidden whitespace-nowrap text-xs text-muted"
      data-testid="index-line"
      data-state={state}
    >
      {index === null ? null : index.state === 'ready' ? (
        <span className="truncate">
          the text of {formatCount(index.sessions)} session{index.sessions === 1 ? '' : 's'} indexed · a phrase matches as
          written; end a word with * for a prefix
        </span>
      ) : (
        <IndexProgress index={index} />
      )}
    </div>
  )
}

function IndexProgress({ index }: { index: IndexProgressView }) {
  const share = index.total === 0 ? 0 : index.done / index.total
  return (
    <span className="flex items-center gap-2" data-testid="index-progress" data-done={index.done} data-total={index.total}>
      <progress className="h-1.5 w-48" max={Math.max(1, index.total)} value={index.done} aria-label="Content index build" />
      <span className="tabular-nums">
        indexing session text: {formatCount(index.done)} of {index.total === 0 ? '…' : formatCount(index.total)} logs (
        {Math.floor(share * 100)}%)
      </span>
    </span>
  )
}

function HitRow({ session, hit, onOpen }: { session: ContentHitSession; hit: ContentHit; onOpen: () => void }) {
  return (
    <li>
      <button
        type="button"
        data-testid="search-hit"
        data-session-id={session.id ?? ''}
        data-seq={hit.seq}
        data-surface={hit.surface}
        onClick={onOpen}
        disabled={session.id === null}
        className="flex w-full min-w-0 items-baseline gap-2 px-3 py-1 text-left text-xs hover:bg-raised focus:bg-accent-soft focus:outline-none"
      >
        <span className="shrink-0 font-mono tabular-nums text-muted">#{hit.seq}</span>
        <span className="shrink-0 font-semibold">{hit.type}</span>
        {hit.tool === null ? null : <span className="shrink-0 font-mono text-muted">{hit.tool}</span>}
        <span className="shrink-0 rounded border border-line px-1 text-muted" title={SURFACE_TITLES[hit.surface]}>
          {SURFACE_WORDS[hit.surface]}
          {hit.shadowedBy === null ? '' : ` by #${hit.shadowedBy}`}
        </span>
        <span className="min-w-0 truncate">
          <HighlightedSnippet text={hit.snippet} highlight={hit.highlight} />
        </span>
      </button>
    </li>
  )
}

export function HomeSearch() {
  const search = useLensStore((s) => s.homeSearch)
  const index = useLensStore((s) => s.indexProgress)
  const searchSessions = useLensStore((s) => s.searchSessions)
  const watchIndex = useLensStore((s) => s.watchIndex)
  const openHit = useLensStore((s) => s.openSearchHit)
  // First use: the home asks for the index's progress, which starts its background build.
  useEffect(() => watchIndex(), [watchIndex])

  const answer = search.query.trim() === '' ? null : search.answer
  const hits = answer?.ok === true ? answer.sessions.reduce((n, s) => n + s.hits.length, 0) : 0
  const building = index !== null && index.state !== 'ready'
  const unavailable = index?.state === 'unavailable'
  return (
    <div className="mt-3">
      <input
        type="search"
        data-testid="home-search"
        data-index-state={index?.state ?? 'idle'}
        aria-label="Search the text of every session"
        placeholder="Search inside every session: what was said, run or failed"
        className="w-full rounded border border-line bg-panel px-2 py-1"
        value={search.query}
        disabled={unavailable}
        onChange={(event) => searchSessions(event.currentTarget.value)}
      />
      {unavailable ? <IndexUnavailable index={index} /> : <IndexLine index={index} />}
      {search.error !== null ? <p className="mt-2 text-xs text-danger">The search failed: {search.error}</p> : null}
      {answer === null || unavailable ? null : (
        <section
          data-testid="home-search-results"
          data-count={hits}
          data-order={answer.ok ? (answer.order ?? 'strength') : ''}
          data-state={search.pending ? 'searching' : answer.ok ? 'done' : 'refused'}
          aria-label="Sessions whose text matches"
          className="mt-2 rounded border border-line bg-panel"
        >
          <p className="border-b border-line px-3 py-1 text-xs text-muted" role="status">
            {answer.ok
              ? `${formatCount(hits)} hit${hits === 1 ? '' : 's'} in ${formatCount(answer.sessions.length)} session${answer.sessions.length === 1 ? '' : 's'}${answer.order === 'recent' ? RECENT_ORDER : ''}`
              : answer.message}
            {building
              ? ` · ${formatCount(answer.index.sessions)} sessions indexed so far, of ${formatCount(answer.index.total)}`
              : ''}
          </p>
          {answer.ok
            ? answer.sessions.map((session) => (
                <section
                  key={`${session.id ?? ''}:${session.project ?? ''}`}
                  aria-label={session.title ?? session.id ?? 'session'}
                >
                  <h3 className="truncate bg-raised px-3 py-0.5 text-xs font-semibold" title={session.project ?? ''}>
                    <VisibleText text={session.title ?? session.id ?? '(no id)'} />
                  </h3>
                  <ul>
                    {session.hits.map((hit) => (
                      <HitRow
                        key={hit.seq}
                        session={session}
                        hit={hit}
                        onOpen={() => session.id !== null && openHit(session.id, hit.seq)}
                      />
                    ))}
                  </ul>
                </section>
              ))
            : null}
        </section>
      )}
    </div>
  )
}
