/**
 * The top bar's Share… button (`[data-testid=share]`): opens the review of a bundle of the open session. The bundle's
 * template is the viewer's `dsh-lens-bundle.html` beside the page (served by `dsh-lens`, `npm run preview`). In an
 * offline bundle the button is off: the file itself is what to send.
 */

import { BUNDLE_TEMPLATE_FILE } from '../../core/export/offline-bundle.ts'
import { useLensStore, useLensStoreApi } from '../../store/lens-store-context.tsx'
import { BUTTON } from '../shared/button-class.ts'

export function ShareButton({ inBundle }: { inBundle: boolean }) {
  const store = useLensStoreApi()
  const ready = useLensStore((s) => s.loadState === 'ready' && s.summary !== null && s.summary.length > 0)
  return (
    <button
      type="button"
      className={BUTTON}
      data-testid="share"
      disabled={!ready || inBundle}
      title={
        inBundle
          ? 'This page is a bundle already: send the file itself'
          : 'Write this session as one HTML file that opens anywhere, secrets redacted first'
      }
      onClick={() => store.getState().openShare(new URL(BUNDLE_TEMPLATE_FILE, document.baseURI).href)}
    >
      Share…
    </button>
  )
}
