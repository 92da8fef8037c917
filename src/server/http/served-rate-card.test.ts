// @vitest-environment jsdom
/**
 * The rate card the server prices with goes to the page it serves (`dsh-lens-rates`, issue 37): a card that is not the
 * built-in one is put in index.html, read back by the page exactly (escaped as an attribute, so a card's text never
 * becomes markup), and accepted by the worker's `rate-card` query; the built-in card puts nothing in the page.
 */

import { request } from 'node:http'
import { beforeAll, describe, expect, test } from 'vitest'
import { builtInRateCard, parseRateCard, type RateCard } from '../../core/index.ts'
import { TEST_CARD } from '../../test-support/cost-test-card.ts'
import { servedRoot } from '../../test-support/live-test-kit.ts'
import { servedRateCard } from '../../ui/app/page-source.ts'
import { CostQueries } from '../../view/cost-query.ts'
import { startLensServer } from '../lens-server.ts'

let root: string
let dist: string

beforeAll(async () => {
  ;({ root, dist } = await servedRoot())
})

function page(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/' }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => (body += c))
      res.on('end', () => resolve(body))
    })
    req.on('error', reject)
    req.end()
  })
}

async function served(options: { rateCard?: RateCard; sessionsHome?: boolean }): Promise<Document> {
  const server = await startLensServer({ roots: [root], distDir: dist, ...options })
  try {
    return new DOMParser().parseFromString(await page(server.port), 'text/html')
  } finally {
    await server.close()
  }
}

// A version with markup and entities in it: the page must get it back as text, never as elements.
const CARD: RateCard = { ...TEST_CARD, version: 'test-1 + "mine" </head><script>x</script> & more (/tmp/r.json)' }

describe('the served rate card', () => {
  test('another card is in the page, exactly, for `dsh-lens [open]` and for `serve`; the worker takes it', async () => {
    for (const sessionsHome of [true, false]) {
      const doc = await served({ rateCard: CARD, sessionsHome })
      const text = servedRateCard(doc)
      expect(text).not.toBeNull()
      expect(JSON.parse(text as string)).toStrictEqual(CARD)
      expect(doc.querySelectorAll('script')).toHaveLength(0)
      expect(doc.querySelector('meta[name="dsh-lens-served"]') !== null).toBe(sessionsHome)
      expect(parseRateCard(text as string, 'page', builtInRateCard()).card).toStrictEqual(CARD)
      expect(new CostQueries().useCard(text)).toStrictEqual({ version: CARD.version, checked: CARD.checked, custom: true })
    }
  })

  test('the built-in card (no --rates) puts nothing in the page', async () => {
    for (const options of [{}, { rateCard: builtInRateCard() }]) {
      const doc = await served({ ...options, sessionsHome: true })
      expect(servedRateCard(doc)).toBeNull()
      expect(doc.querySelector('meta[name="dsh-lens-served"]')).not.toBeNull()
    }
  })
})
