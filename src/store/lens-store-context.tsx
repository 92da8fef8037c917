/** React context for one lens store, and `useLensStore(selector)` to read it. */

import { createContext, useContext, type ReactNode } from 'react'
import { useStore } from 'zustand'
import type { LensState, LensStore } from './create-lens-store.ts'

const LensStoreContext = createContext<LensStore | null>(null)

export function LensProvider({ store, children }: { store: LensStore; children: ReactNode }) {
  return <LensStoreContext.Provider value={store}>{children}</LensStoreContext.Provider>
}

/** The store itself, for actions and imperative reads in event handlers. */
export function useLensStoreApi(): LensStore {
  const store = useContext(LensStoreContext)
  if (store === null) throw new Error('useLensStore must be used inside <LensProvider>')
  return store
}

export function useLensStore<T>(selector: (state: LensState) => T): T {
  return useStore(useLensStoreApi(), selector)
}
