/** The app's first render, in a transition so React renders it in slices (boot-app.ts says why). */

import { StrictMode, startTransition } from 'react'
import type { Root } from 'react-dom/client'
import type { LensStore } from '../../store/create-lens-store.ts'
import { LensProvider } from '../../store/lens-store-context.tsx'
import { App } from './App.tsx'
import type { PageSource } from './page-source.ts'
import { PageSourceProvider } from './page-source-context.tsx'

export function renderApp(root: Root, store: LensStore, source: PageSource): void {
  startTransition(() => {
    root.render(
      <StrictMode>
        <LensProvider store={store}>
          <PageSourceProvider source={source}>
            <App />
          </PageSourceProvider>
        </LensProvider>
      </StrictMode>,
    )
  })
}
