import { expect, it } from 'vitest'
import { CHART_HEIGHT_MAX, CHART_HEIGHT_MIN, chartHeightFor } from './chart-height.ts'

it('the chart keeps its height on a tall window and shrinks first on a short one', () => {
  expect(chartHeightFor(900)).toBe(CHART_HEIGHT_MAX)
  expect(chartHeightFor(1200)).toBe(CHART_HEIGHT_MAX)
  expect(chartHeightFor(850)).toBe(78)
  expect(chartHeightFor(800)).toBe(CHART_HEIGHT_MIN)
  expect(chartHeightFor(500)).toBe(CHART_HEIGHT_MIN)
})
