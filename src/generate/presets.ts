/**
 * Named generator presets: the demo log, the three benchmark sizes (10k, 280k, 1.3M events), a log of many short
 * steps and compactions (280k-short) and a graph-heavy log.
 */

import type { GenerateOptions } from './options.ts'

export type PresetName = 'demo' | '10k' | '280k' | '1.3M' | '280k-short' | 'graph-5k'

export const PRESET_NAMES: readonly PresetName[] = ['demo', '10k', '280k', '1.3M', '280k-short', 'graph-5k']

const PRESETS: Record<PresetName, Omit<GenerateOptions, 'seed'>> = {
  // A few hundred random-word events that still show every replace shape: several summaries (one nested), prunes,
  // max tokens. Tests use it as a small log; the bundled demo is the scripted session in demo/.
  demo: {
    targetEvents: 500,
    compactionEveryTurns: 2,
    pruneEveryTurns: 3,
    pruneMinBytes: 600,
    maxTokensEveryTurns: 4,
    headerChangeEveryTurns: 5,
    stepsPerTurn: [1, 3],
    reasoningTokens: 6,
    textTokens: 10,
    toolResultMedianBytes: 700,
    toolResultMaxBytes: 6_000,
    hugeToolResultEvery: 0,
  },
  '10k': {
    targetEvents: 10_000,
    stepsPerTurn: [1, 4],
    compactionEveryTurns: 4,
    pruneEveryTurns: 3,
    maxTokensEveryTurns: 7,
    hugeToolResultEvery: 10,
    hugeToolResultBytes: 1_000_000,
  },
  '280k': { targetEvents: 280_000 },
  // The representative large session: 1.3M events, ~97 MiB of plaintext.
  '1.3M': { targetEvents: 1_300_000, compactionEveryTurns: 40, toolResultMedianBytes: 2_200 },
  // The same size in another shape (issue 35): ~3,000 short turns of one to three steps, a request header every turn,
  // a compaction every fourth turn (~6,000 steps, ~750 compactions, ~3,900 tool results, packed rows, ~40 MB). Where
  // the 280k log spends its events in long streamed answers, this one spends them in per-step and per-turn events.
  '280k-short': {
    targetEvents: 280_000,
    stepsPerTurn: [1, 3],
    compactionEveryTurns: 4,
    headerChangeEveryTurns: 1,
    reasoningTokens: 9,
    textTokens: 12,
    toolResultMedianBytes: 1_000,
    toolResultMaxBytes: 60_000,
    hugeToolResultEvery: 0,
  },
  // The replace graph at scale: exactly 5,000 replacements (a compaction and a prune nearly every turn, summaries
  // nested up to four deep) in short two-step turns (~255k events, ~37 MB): the graph, not the log, is what costs.
  'graph-5k': {
    targetEvents: 5_000_000,
    targetReplacements: 5_000,
    compactionEveryTurns: 1,
    compactionMaxDepth: 4,
    pruneEveryTurns: 1,
    pruneMinBytes: 300,
    maxTokensEveryTurns: 0,
    headerChangeEveryTurns: 0,
    stepsPerTurn: [2, 2],
    reasoningTokens: 4,
    textTokens: 6,
    toolResultMedianBytes: 400,
    toolResultMaxBytes: 3_000,
    hugeToolResultEvery: 0,
  },
}

export function presetOptions(name: PresetName, seed = 1): GenerateOptions {
  return { ...PRESETS[name], seed }
}
