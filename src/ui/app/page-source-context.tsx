/** What the page was opened with (its address when it loaded), for the components that word themselves by it. */

import { createContext, useContext, type ReactNode } from 'react'
import type { PageSource } from './page-source.ts'

const SourceContext = createContext<PageSource>({ kind: 'demo' })

export function PageSourceProvider({ source, children }: { source: PageSource; children: ReactNode }) {
  return <SourceContext value={source}>{children}</SourceContext>
}

export function usePageSource(): PageSource {
  return useContext(SourceContext)
}
