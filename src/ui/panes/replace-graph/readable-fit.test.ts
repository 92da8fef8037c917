import { describe, expect, it } from 'vitest'
import { LABEL_PX, MIN_LABEL_PX, MIN_LABEL_ZOOM, readableFit } from './readable-fit.ts'

describe('readableFit', () => {
  it('fits a small graph, centred, up to the zoom ceiling', () => {
    const v = readableFit({ x: 0, y: 0, width: 200, height: 100 }, 400, 300, 0.1, 1.25)
    expect(v.zoom).toBe(1.25)
    expect(v.x).toBeCloseTo((400 - 250) / 2)
    expect(v.y).toBeCloseTo((300 - 125) / 2)
  })

  it('never zooms a tall graph out so far that labels go under 9 px: it starts at the top instead', () => {
    const v = readableFit({ x: 10, y: 20, width: 200, height: 5000 }, 400, 300, 0.1, 1.25)
    expect(v.zoom).toBe(MIN_LABEL_ZOOM)
    expect(LABEL_PX * v.zoom).toBeGreaterThanOrEqual(MIN_LABEL_PX)
    expect(v.y).toBeCloseTo(30 - 20 * MIN_LABEL_ZOOM)
    expect(v.x).toBeCloseTo((400 - 200 * MIN_LABEL_ZOOM) / 2 - 10 * MIN_LABEL_ZOOM)
  })

  it('zooms out between the two when that fits', () => {
    const v = readableFit({ x: 0, y: 0, width: 400, height: 300 }, 400, 300, 0.1, 1.25)
    expect(v.zoom).toBeCloseTo(0.8)
  })
})
