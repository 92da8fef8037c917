/**
 * The page's boot after start-lens.ts opened the source: React DOM, then the app's modules, then the first render, each
 * in a task of its own. One module graph evaluates in one task, and the entry with React DOM and every pane in it was
 * one long task beside the worker's start; the first render, run at React's default priority, was another. Here each
 * `import()` evaluates in its own task, a yield between them lets the worker's messages and input in, and the first
 * render is a transition, which React's scheduler renders in short slices. The chunks are fetched with the entry
 * (boot-preload-plugin.ts), so the split costs no round trip.
 */

import type { LensStore } from '../../store/create-lens-store.ts'
import { yieldToEventLoop } from '../../platform/yield-to-event-loop.ts'
import type { PageSource } from './page-source.ts'

export async function bootApp(store: LensStore, container: HTMLElement, source: PageSource): Promise<void> {
  const { createRoot } = await import('react-dom/client')
  await yieldToEventLoop()
  const { renderApp } = await import('./render-app.tsx')
  await yieldToEventLoop()
  renderApp(createRoot(container), store, source)
}
