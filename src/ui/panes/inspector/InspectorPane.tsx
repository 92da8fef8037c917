/** The inspector: raw event JSON (in pieces, hidden characters marked), surface facts, source links, replacement details and the event's diagnostics. */

import { PaneFrame } from '../../shared/PaneFrame.tsx'
import { useLensStore, useLensStoreApi } from '../../../store/lens-store-context.tsx'
import { selectDetail, selectSelected } from '../../../store/selectors.ts'
import type { EventDetail } from '../../../protocol/event-views.ts'
import { SeqBadge } from '../../shared/SeqBadge.tsx'
import { VisibleText } from '../../shared/VisibleText.tsx'
import { ExpandableText } from './ExpandableText.tsx'
import { SeqLinks } from './SeqLinks.tsx'
import { SummaryForgot } from './SummaryForgot.tsx'
import { EventSecrets } from './EventSecrets.tsx'
import { CompactionCost } from './CompactionCost.tsx'
import { VisibilityWords } from '../../shared/VisibilityWords.tsx'

function Fact({ name, children }: { name: string; children: React.ReactNode }) {
  return (
    <>
      <dt className="text-muted">{name}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </>
  )
}

export function InspectorPane() {
  const selected = useLensStore(selectSelected)
  const detail = useLensStore(selectDetail)
  return (
    <PaneFrame title="Inspector" testId="inspector" className="flex-1">
      <div className="min-h-0 flex-1 overflow-auto p-2">
        {selected === null ? (
          <p className="text-muted">Select an entry in the transcript, the surface, the graph or the diagnostics.</p>
        ) : null}
        {selected !== null && detail === null ? <p className="text-muted">Loading…</p> : null}
        {detail !== null ? <DetailView detail={detail} /> : null}
      </div>
    </PaneFrame>
  )
}

function DetailView({ detail }: { detail: EventDetail }) {
  const store = useLensStoreApi()
  const go = (seq: number) => void store.getState().selectSeq(seq, 'inspector', false)
  const goAndMove = (seq: number) => void store.getState().selectSeq(seq, 'inspector', true)
  const s = detail.summary
  const r = detail.replacement
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-mono text-sm">#{s.seq ?? '?'}</span>
        <span className="font-semibold">
          <VisibleText text={s.type} />
        </span>
        <span className="text-xs text-muted">line {s.line}</span>
        {s.upgraded ? <span className="rounded bg-warn-soft px-1 text-xs">legacy event, upgraded in memory</span> : null}
        {s.packed ? (
          <span className="rounded border border-line px-1 text-xs text-muted">stored in a packed chunk row</span>
        ) : null}
      </div>
      <dl className="grid grid-cols-[8rem_1fr] gap-x-2 gap-y-1 text-xs">
        <Fact name="surfaceOp">{detail.surfaceOp ?? <span className="text-muted">none (log-only)</span>}</Fact>
        <Fact name="sourceEventSeqs">
          <SeqLinks seqs={detail.sourceEventSeqs} onPick={go} />
        </Fact>
        <Fact name="entered surface">
          {detail.enteredSeq === null ? (
            <span className="text-muted">never</span>
          ) : (
            <SeqBadge
              seq={detail.enteredSeq}
              onClick={() => goAndMove(detail.enteredSeq ?? 0)}
              label="move the cursor to where it entered"
            />
          )}
        </Fact>
        <Fact name="shadowed">
          {detail.shadowedAtSeq === null ? (
            <span className="text-muted">not shadowed in this log</span>
          ) : (
            <span>
              by{' '}
              <SeqBadge
                seq={detail.shadowedAtSeq}
                onClick={() => goAndMove(detail.shadowedAtSeq ?? 0)}
                label={`go to the replacement #${detail.shadowedAtSeq}`}
              />
            </span>
          )}
        </Fact>
        <Fact name="on the surface now">
          {detail.surfaceCounterpart === null ? (
            <span className="text-muted">no</span>
          ) : detail.surfaceCounterpart === s.seq ? (
            'yes'
          ) : (
            <span>
              covered by <SeqBadge seq={detail.surfaceCounterpart} onClick={() => go(detail.surfaceCounterpart ?? 0)} />
            </span>
          )}
        </Fact>
        {r !== null ? (
          <>
            <Fact name="replacement">
              {r.kind}
              {r.compactionId !== null ? ` · compaction ${r.compactionId}` : ''} · declared #{r.start}–#{r.end}
            </Fact>
            <Fact name="shadowed seqs">
              <SeqLinks seqs={r.shadowedSeqs} onPick={go} />
            </Fact>
            <Fact name="transcript covered">
              <SeqLinks seqs={detail.transcriptCounterparts} onPick={go} />
            </Fact>
          </>
        ) : null}
      </dl>
      {detail.lifespanSteps !== null ? (
        <VisibilityWords spans={[detail.lifespanSteps]} testId="lifespan-text" className="text-xs" />
      ) : null}
      {(r?.kind === 'summary' || s.type === 'compaction/summary') && s.seq !== null ? <CompactionCost seq={s.seq} /> : null}
      {r !== null && r.kind === 'summary' && s.seq !== null ? <SummaryForgot seq={s.seq} /> : null}
      <EventSecrets index={s.index} />
      {detail.diagnostics.length > 0 ? (
        <ul className="rounded border border-danger bg-danger-soft p-1 text-xs" aria-label="Diagnostics for this event">
          {detail.diagnostics.map((d, i) => (
            <li key={i}>
              <span className="font-mono">{d.code}</span>: <VisibleText text={d.message} />
            </li>
          ))}
        </ul>
      ) : null}
      <h3 className="text-xs font-semibold text-muted">
        {s.upgraded ? 'Event as the harness reads it (upgraded)' : 'Raw event'}
      </h3>
      <ExpandableText
        key={`raw:${s.index}`}
        index={s.index}
        seq={s.seq}
        field="raw"
        initial={detail.rawJson}
        info={detail.rawJsonInfo}
        testId="inspector-json"
      />
      {detail.onDiskJson !== null && detail.onDiskJsonInfo !== null ? (
        <>
          <h3 className="text-xs font-semibold text-muted">On disk (legacy shape)</h3>
          <ExpandableText
            key={`disk:${s.index}`}
            index={s.index}
            seq={s.seq}
            field="disk"
            initial={detail.onDiskJson}
            info={detail.onDiskJsonInfo}
            testId="inspector-disk-json"
          />
        </>
      ) : null}
    </div>
  )
}
