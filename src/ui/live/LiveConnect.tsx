/** Mounts the Connect flow when the page URL has `?ws=`: one LiveController per page, its status line and session picker. */

import { useEffect, useState } from 'react'
import { useStore } from 'zustand'
import { useLensStoreApi } from '../../store/lens-store-context.tsx'
import { LiveController, parseLiveParams } from './live-controller.ts'
import { LiveStatusLine } from './LiveStatusLine.tsx'
import { SessionPicker } from './SessionPicker.tsx'

export function LiveConnect() {
  const store = useLensStoreApi()
  // Constructing is inert (no socket yet), so it can happen during render; the effect owns connecting.
  const [controller] = useState(() => {
    const params = parseLiveParams(window.location.search)
    return params === null ? null : new LiveController(store, params)
  })
  useEffect(() => {
    if (controller === null) return
    controller.start()
    // StrictMode mounts twice in development: stop() then start() again must leave one live subscription.
    return () => controller.stop()
  }, [controller])
  if (controller === null) return null
  return <LiveBody controller={controller} />
}

function LiveBody({ controller }: { controller: LiveController }) {
  const view = useStore(controller.view)
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
