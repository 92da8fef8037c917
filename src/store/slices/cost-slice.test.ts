/** The rate card in the page's store: the server's card goes to the worker by a store action; a refused one is said. */

import { describe, expect, it } from 'vitest'
import { builtInRateCard } from '../../core/index.ts'
import { TEST_CARD } from '../../test-support/cost-test-card.ts'
import { createInThreadClient } from '../../worker/in-thread-client.ts'
import { createLensStore } from '../create-lens-store.ts'
import type { LineageClient } from '../../protocol/lineage.ts'

const lineage = {} as LineageClient

describe('applyRateCard', () => {
  it('hands the card to the worker, whose answers then name it; null goes back to the built-in card', async () => {
    const lens = createInThreadClient()
    const store = createLensStore({ lens, lineage })
    expect(store.getState().rateCard).toBeNull()
    await store.getState().applyRateCard(JSON.stringify(TEST_CARD))
    expect(store.getState().rateCard).toStrictEqual({ version: 'test-1', checked: '2026-12-01', custom: true })
    expect(store.getState().rateCardProblem).toBeNull()
    const built = builtInRateCard()
    await store.getState().applyRateCard(null)
    expect(store.getState().rateCard).toStrictEqual({ version: built.version, checked: built.checked, custom: false })
  })

  it('a card the worker refuses is said in one sentence, and the built-in card stays in force', async () => {
    const store = createLensStore({ lens: createInThreadClient(), lineage })
    await store.getState().applyRateCard('{"schema":')
    expect(store.getState().rateCard).toBeNull()
    expect(store.getState().rateCardProblem).toMatch(/^the companion server's rate card line 1: not JSON/)
  })
})
