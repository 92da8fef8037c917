/**
 * The first module the page evaluates (main.tsx imports it before React): the worker, the store, and the page's
 * own source. ES modules run in import order, so the worker starts and `?log=` downloads and folds while React's
 * modules are still being evaluated and the first render runs; nothing here imports React.
 */

import { BUNDLE_ELEMENT_ID, readBundleData, type BundleData } from './core/export/offline-bundle.ts'
import { TailClient } from './live/tail-client.ts'
import { createLensStore, type LensStore } from './store/create-lens-store.ts'
import { openInitialSource } from './ui/app/initial-source.ts'
import { liveParamsOf, pageSource, servedMarker } from './ui/app/page-source.ts'
import { initialTheme } from './ui/app/initial-theme.ts'
import { themeChartColors } from './ui/shared/theme-colors.ts'
import { createLineageClient } from './worker/lineage-client.ts'
import { createWorkerClient } from './worker/worker-client.ts'

/** An offline bundle's data (`dsh-lens bundle`: docs/secrets.md), or null on any other page. */
export const bundle = readBundleData(document.getElementById(BUNDLE_ELEMENT_ID)?.textContent)
/** What this page opens (read once: later navigation within the page is the store's live actions' business). */
export const source = bundle === null ? pageSource(window.location.search, servedMarker(document)) : bundleSource(bundle)
const live = liveParamsOf(source, window.location)
/** The page's one store, with the clients it talks through: the lens worker, the lineage worker, the live server. */
export const store = createLensStore({
  lens: createWorkerClient(),
  lineage: createLineageClient(),
  live:
    live === null
      ? null
      : {
          client: new TailClient({
            url: live.ws,
            ...(live.token === null ? {} : { token: live.token }),
            client: 'dsh-lens-viewer/0.1',
          }),
          params: live,
        },
})
if (bundle === null) openInitialSource(store, source)
else void openBundleLogs(store, bundle)
// The server's stream connects while React loads (as `?log=` downloads): the sessions list is there sooner.
store.getState().startLive()
if (source.kind === 'file-link') {
  const { name, size, sha256 } = source
  store.getState().expectFile({ name, size, sha256, hash: window.location.hash })
}

const theme = initialTheme()
document.documentElement.dataset['theme'] = theme
store.getState().setTheme(theme)
// The canvases' colours, read while the page is an empty shell: read at the first render instead, the style of the
// whole new page was recalculated inside that task first.
themeChartColors()

/** A bundle's page opens its own log, as a file: no URL is read, so `kind: 'log'` names the file. */
function bundleSource(data: BundleData): ReturnType<typeof pageSource> {
  return { kind: 'log', url: (data.logs[0] as BundleData['logs'][number]).path }
}

/** The bundle's logs (gzip, base64) as dropped files: one opens in the viewer, several as a sessions bundle. */
async function openBundleLogs(lens: LensStore, data: BundleData): Promise<void> {
  const fromBase64 = (Uint8Array as unknown as { fromBase64?: (s: string) => Uint8Array }).fromBase64
  const files = await Promise.all(
    data.logs.map(async (log) => {
      const gzip = fromBase64?.(log.gzipBase64) ?? Uint8Array.from(atob(log.gzipBase64), (c) => c.charCodeAt(0))
      const plain = new Blob([gzip as BlobPart]).stream().pipeThrough(new DecompressionStream('gzip'))
      return { path: log.path, blob: new File([await new Response(plain).blob()], log.path.split('/').pop() ?? log.path) }
    }),
  )
  if (files.length === 1) lens.getState().loadFile((files[0] as { blob: File }).blob)
  else lens.getState().openBundle(files)
}
