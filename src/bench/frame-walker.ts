/** Minimal zstd frame boundary walk for the baselines: header and block headers only, no decoding, no checks. */

/** [start, end) byte ranges of each concatenated frame. Assumes a well-formed file (the baselines' input is ours). */
export function zstdFrameRanges(bytes: Uint8Array): Array<[number, number]> {
  const ranges: Array<[number, number]> = []
  let pos = 0
  while (pos + 5 <= bytes.length) {
    const start = pos
    const fhd = bytes[pos + 4] as number
    const single = (fhd >> 5) & 1
    const dictSize = [0, 1, 2, 4][fhd & 3] as number
    const fcsSize = [single ? 1 : 0, 2, 4, 8][fhd >> 6] as number
    pos += 4 + 1 + (single ? 0 : 1) + dictSize + fcsSize
    for (;;) {
      const header = (bytes[pos] as number) | ((bytes[pos + 1] as number) << 8) | ((bytes[pos + 2] as number) << 16)
      const type = (header >> 1) & 3
      pos += 3 + (type === 1 ? 1 : header >>> 3)
      if (header & 1) break
    }
    if (fhd & 0x04) pos += 4
    ranges.push([start, pos])
  }
  return ranges
}
