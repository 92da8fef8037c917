/** The live controller's status line and, for the Connect flow, its session picker (served pages have the sessions home). */

import { useStore } from 'zustand'
import { useLiveController } from './live-context.tsx'
import type { LiveController } from './live-controller.ts'
import { LiveStatusLine } from './LiveStatusLine.tsx'
import { SessionPicker } from './SessionPicker.tsx'

export function LiveConnect() {
  const controller = useLiveController()
  if (controller === null) return null
  return <LiveBody controller={controller} />
}

function LiveBody({ controller }: { controller: LiveController }) {
  const view = useStore(controller.view)
  // A served page's home has no session to report on.
  if (controller.served && view.sessionId === null) return null
  return (
    <>
      <LiveStatusLine controller={controller} />
      {view.pickerOpen ? (
        <SessionPicker
          sessions={view.sessions}
          error={view.listError}
          current={view.sessionId}
          onOpen={(id) => controller.open(id)}
          onRefresh={() => void controller.refreshSessions()}
          onClose={() => controller.setPickerOpen(false)}
        />
      ) : null}
    </>
  )
}
