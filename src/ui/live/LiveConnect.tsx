/** The live status line and, for the Connect flow, its session picker (served pages have the sessions home). */

import { useMemo } from 'react'
import { useLensStore } from '../../store/lens-store-context.tsx'
import { sessionItems } from '../../store/live/live-view.ts'
import { LiveStatusLine } from './LiveStatusLine.tsx'
import { SessionPicker } from './SessionPicker.tsx'

export function LiveConnect() {
  const mode = useLensStore((s) => s.liveView.mode)
  const sessionId = useLensStore((s) => s.liveView.sessionId)
  const pickerOpen = useLensStore((s) => s.liveView.pickerOpen)
  // A page that follows no server, and a served page's home, have no session to report on.
  if (mode === null || (mode === 'served' && sessionId === null)) return null
  return (
    <>
      <LiveStatusLine />
      {pickerOpen ? <LivePicker /> : null}
    </>
  )
}

function LivePicker() {
  const list = useLensStore((s) => s.liveView.list)
  const error = useLensStore((s) => s.liveView.listError)
  const current = useLensStore((s) => s.liveView.sessionId)
  const openLiveSession = useLensStore((s) => s.openLiveSession)
  const refreshSessions = useLensStore((s) => s.refreshSessions)
  const setPickerOpen = useLensStore((s) => s.setPickerOpen)
  const sessions = useMemo(() => sessionItems(list), [list])
  return (
    <SessionPicker
      sessions={sessions}
      error={error}
      current={current}
      onOpen={openLiveSession}
      onRefresh={refreshSessions}
      onClose={() => setPickerOpen(false)}
    />
  )
}
