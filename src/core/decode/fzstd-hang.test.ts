/**
 * The vendored fzstd's changes (vendor/fzstd.js), each on the input that found it, decoded on a worker thread that
 * is terminated after a while, so a regression fails here instead of hanging the suite:
 * - a Huffman table description holding FSE states of 0 bits sent fzstd's weight loop round forever (a 1,644-byte
 *   batch frame of a generated log with one byte flipped, found by the zstd container fuzz, fuzz.property.test.ts);
 * - sequences that do not fit their block were copied for their full lengths past the block's buffer (a 371-byte
 *   frame with a few bytes flipped, 1.6 s; and NaN lengths, 160 ms; found by a fuzz of the vendored file);
 * - a torn frame streamed block by block moved its whole window at every block (a crafted frame of tiny blocks).
 */

import { Worker } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { LensLog } from '../log/lens-log.ts'
import { ZSTD_MAGIC } from './zstd-container.ts'
import { loadContentChecksum } from './xxh64.ts'

const HUNG_FRAME = Buffer.from(
  'KLUv/QRY/TIAtvysJfD79agigBGsmi1fNYdL2OL22ufvZF9wbQlJHqB+1+2BZ8BnSgOiAKgAnACWOyOLzdcyL0aE7olcsqowK2l+' +
    'RnJ43tXpRtKqasQSnZYlObIlMSPJcWH2Y1JcOkEasizjKzsiprkyp7XmlDjyNaUJpF4WN1NTqhVHluhU4UvkGV1YtdwZGJEvnZfW' +
    'iJupenGzM5IjSxNfIrf/T4q0dlaSS+W1k7Wyn7s1rwXIMo98iSyvlLid5njkWU2Xu0X+mJab7yWvldALuxx5WiKXLwETjwIP5zCY' +
    'uzd3ad5JWVWNaLVyXo+DPCNjCp0kOi2ObLEr7xRQJbZVqo/f6QqRVKnelxENgzleYbhkFQiQwZoDOfBilbt5ZHsxi058iRh3wnPN' +
    'k3FLsEyJTtwsLzUl5lrmjQ10KhTriCTQayQ6I0lZ8+LIVuVLv3bNdKJglHVNiznm0qlalWh2RP/gNS3Wmke+FKsLdFZqxWcfWaKT' +
    '+yOFyglphlRJdgSUjJopSkYMVevT3PPX7TXk+nHtuG6cNwcf5O85T3uuPdA75/GmcQgKLCQUqgEICp3gu4cPXTvX755D+P4519B3' +
    '467xx71zz939O/fenYYzsgDf/d3z7Xw33/D7fbvvf/d/buBz783t4BKgcMaIbDPawYh8JW+8feRmKxTriB76O8/bN4f68XYcav7c' +
    'mzfUHHLuD727Ab2IHqh5mAQAWeaRu13tHzQZkevOS1JR1Dt/Tzew4bumPafBBht8CGr+IQgf96C798N22N6BDt1xD1371ziHMEPC' +
    'cGCDED744GsQothlOffc875xznkPvWvee0zVeqelJEfkq15Xg50sFovFskDVehmqVsiZ++5RmJ0XZw4UJSPoT0LVejOeWIonkScS' +
    'lVVVI55cOLK9dFYY5ZLc3GHlBkeelaTc7DhDBYGhqEG9RSMiIpIkSaYxUQWEEIOUk3APEihRFMmxJAYxCIaAOEWMMYYYEkggI0Mj' +
    'Qtt0A6PzUeD2NlkHzOFKZvzlcBIv5ib6FoqXCCT6iwgfTQe00fykZoXBpCWUlJjM91n2xL5GhbhRziKXK20fjipCOrep+3z/AWeQ' +
    'I0l5+Y4OLu0Q+/hueFZlxO8mCGzRjs+o03ZLh0HdvfrWy0iQDGgpsdH7alrvUgG+qIlBo+03/eox3UkGGcn4zWdfaewyrbZfFUsl' +
    'nIZ29Ct3rzH1leKWlJE0FeSCufrADaPQcuyUu4nBnG4/uuuTBgYKaW6ywSxeXKrfjT6atpDBWbVMyKiOHXxBMPUickryO8QDTEqj' +
    '1SfMwV4YBRS9AbZoddxPtc3XJYfMOy51VMiA4B4NRyoR6xQUhW4Zo6oi2S1h0ETh0Fh5q8BL/xfY4RX6t3KvF9XV15iYdER+V5NQ' +
    'imVYcmbxveiODQHNgwdqeiN6b0C6RYay90olG5B8QCla6beI0ppDbX0zrtaVg6C5PKs0aDB3UrCV5J7g5mWrK6+dB7wileEngBNr' +
    'GL+S4CYrbYZSVhDHzEGZ0SVgrLUFT9P26g3xJYayYKY0gTOdaWjVoUt13vQz8zrWejvrcBBnjp4mprXjAU++yXKdJ7jXhBGKsIsw' +
    'lMgG0wA4KbM3GVsMe/Ce7U1IRyRNElSB89m8DjtvUKVTEOfDX12N/6H9Pf4er0vnVEycIpPOVzKjLrQEsssAXHQFZGpA07YovJ/G' +
    'D2vRU1w4O5T34QqxaYlWfaBzvqd7NLVCe8yHAN5bgWr01G/RXjsUlV6PHIrwB6+wcl/g6IHlLOtNs5xGCMDWsnHDlAHbXKF3Dg51' +
    'GUvxfCD+PQy/LVRu4MOKc3nQx0XwjOnBz6DQzktOzH8e6OMHFj9UAC6pdzd4xoexvSOOkm3jkpH7ayUoAIvlxFGD9hFQLCXhyQgI' +
    'Jgz7p4Rn3MN62Zl2Qxk6lTHi0p1O8eMrfC0UlytGt7nNc+Y4qqM+RA8iIYb83TwwvFOotAlOXnLUuFPBkKKFOP9OauznC7k1dsym' +
    'mQwPvkkXF9/kAJhe004INGp9VsTHLobB7MK2DUngRXmqdQg5G8RmsUovlqqYRY67nEd5YYxKl1hjKQr9nmbej4G6+5EO0TrfVV3I' +
    'a3dKvfm+zK0tqKAF3ICqpG8zyrbImua8J16U6M03s2GSbR76VtdZIdKKSSHek3covyi5HvMC7x67RPzu1Z9Humrxbvqm',
  'base64',
)
/** Declares 688 bytes and a checksum; its damaged sequences ask for lengths far past its 688-byte block. */
const SEQUENCES_PAST_BLOCK = Buffer.from(
  'KLUv/WSwAS0LAIZSOSJAidYBO34NJVukWsAOI9wgVtIuw+wNfEM0Ixv+gilqHWMCMAAtADAAqyh9cr4mKOVnposWxEKBEEKLgumm' +
    'vS5iWZJSVNCuqx55k2AdIK896NxSlXZEeE0ILXtx9IiEB6x/dXTaoKvv7AzKUOrv9Os20qJFu1A2baIwlL5Sp9lruklp7HcNcCmb' +
    'kk2kRShtWibZlBLm0YBNkt8PkQWdQ1ESiVmSUoB//N7cufA8DX0Jo9P9Btz0hedpvOl4/mIHg6sZY2wAt5aQ19xb09c1LB/MwYeL' +
    'LQV0vel2+DP+hIZ2D7ZfHJveIFAic0zuszHgj1OEzyWfxgZL02u0UK7rYbZRsB4MLIIZR+Ay3DvAmVYNF12kWKzEiuh2kwVQTbEA' +
    'WUCLS6XLzlxmEzfBCU7hUVugckYsbJzH3QeGn8GBLH4MeH+A0BbEzNAcEB9VzAAvMr5408EwmEk8MKTP0D8NTQiEHhgEuuE=',
  'base64',
)
/** Its damaged sequences read states past their tables' ends: NaN lengths, which no comparison refused. */
const SEQUENCES_OF_NAN = Buffer.from(
  'KLUv/WRcAC0HADKOKyJAiTgHOMVUEpb/u9ZahfwGgSuKYmm+IuhLjzAC03NsXWMCAAsLCw/4+hgH6kanJUCwiR6F5Ntg8A0DfDtO' +
    'c8k1RhShLrtPoyg6CtKtBq8tzr3IWOY9zEJP8s18N04Xl6xghl+o5/phfaVaT/U8Arn6QhTMq/iKuaHKY/zFDOlCPxXzi+L6wdy2' +
    'KT6ikiRBZGaCIFHMqQfM+go5JJgTQaFv2Ly4OIFt6JpZIcf6EfYAUEuAp0ui0AaLIAmV46tBKLTOpaHM5lqpzTVe80nK4lprSIw8' +
    'pEJyAWaGxgz2cunSKmccuB/y',
  'base64',
)
const FZSTD = new URL('./vendor/fzstd.js', import.meta.url).href

/**
 * A torn frame as a stream decoder meets it: a 128 MiB window (no content size, so not single-segment) and `blocks`
 * RLE blocks of one byte each, the last one not marked last. fzstd shifted its whole window at every block.
 */
function tornFrameOfTinyBlocks(blocks: number): Uint8Array {
  const header = [...ZSTD_MAGIC, 0x00, 17 << 3] // no checksum, no content size; window 2^(10+17)
  const block = [0x0a, 0x00, 0x00, 0x78] // RLE (type 1), 1 byte, not last; the byte 'x'
  return Uint8Array.from([...header, ...Array.from({ length: blocks }, () => block).flat()])
}

const INVALID_AT_0 = 'corrupt Zstandard session log: frame at byte 0 failed validation: invalid zstd data'

/** What a LensLog (its default decoder) reports of a log that is just `frame`. */
async function corruptFrameMessages(frame: Uint8Array): Promise<string[]> {
  const log = new LensLog({ checksum: await loadContentChecksum() })
  log.push(frame)
  log.finish()
  return log.diagnostics.filter((d) => d.code === 'zstd-frame-corrupt').map((d) => d.message)
}

/** fzstd's verdict on `frame` from a worker thread, or 'hung' when it has not answered in `ms`. */
function verdictWithin(frame: Uint8Array, ms: number, stream = false): Promise<string> {
  const worker = new Worker(
    `const { workerData, parentPort } = require('node:worker_threads')
     import(workerData.url).then(({ decompress, Decompress }) => {
       try {
         if (!workerData.stream) parentPort.postMessage('decoded ' + decompress(workerData.frame).length)
         else {
           let length = 0
           new Decompress((chunk) => (length += chunk.length)).push(workerData.frame, false)
           parentPort.postMessage('streamed ' + length)
         }
       }
       catch (e) { parentPort.postMessage('threw ' + e.message) }
     })`,
    { eval: true, workerData: { url: FZSTD, frame, stream } },
  )
  return new Promise((resolve) => {
    const timer = setTimeout(() => void worker.terminate().then(() => resolve('hung')), ms)
    worker.once('message', (verdict: string) => {
      clearTimeout(timer)
      void worker.terminate()
      resolve(verdict)
    })
  })
}

describe('a damaged Huffman table that sent fzstd round forever', () => {
  it('is the frame the fuzz found: a zstd frame without a declared size, so libzstd leaves it to fzstd', () => {
    expect([...HUNG_FRAME.subarray(0, 4)]).toStrictEqual([...ZSTD_MAGIC])
    expect(HUNG_FRAME.length).toBe(1644)
    // Frame_Header_Descriptor 0x04: a checksum, no content size.
    expect(HUNG_FRAME[4]).toBe(0x04)
  })

  let verdict = ''
  it('fzstd refuses it at once with its own error', async () => {
    verdict = await verdictWithin(HUNG_FRAME, 20_000)
    expect(verdict).toBe('threw invalid zstd data')
  })

  it('a log holding it: the frame is reported corrupt (in this thread, only once fzstd is known to answer)', async () => {
    expect(verdict, 'fzstd did not answer on its worker: reading the frame here would hang').not.toBe('hung')
    // The default decoder: libzstd, which leaves this frame (no declared size) to fzstd.
    expect(await corruptFrameMessages(HUNG_FRAME)).toStrictEqual([INVALID_AT_0])
  })
})

describe('a damaged block whose sequences do not fit it', () => {
  it('fzstd refuses it with its own error instead of copying past the block (it returned 688 bytes after 1.6 s)', async () => {
    expect([...SEQUENCES_PAST_BLOCK.subarray(0, 4)]).toStrictEqual([...ZSTD_MAGIC])
    expect(await verdictWithin(SEQUENCES_PAST_BLOCK, 20_000)).toBe('threw invalid zstd data')
  })

  it('and one whose lengths are NaN (it returned 348 bytes after 160 ms, copying through buf[NaN])', async () => {
    expect(await verdictWithin(SEQUENCES_OF_NAN, 20_000)).toBe('threw invalid zstd data')
  })

  it('a log holding it reports the frame corrupt with that error (libzstd refuses it, and fzstd has the last word)', async () => {
    expect(await corruptFrameMessages(SEQUENCES_PAST_BLOCK)).toStrictEqual([INVALID_AT_0])
  })
})

describe('a torn frame of many tiny blocks under a large window', () => {
  it('streams every block at the cost of the block, not of the window (fzstd moved 128 MiB per block)', async () => {
    // 4,000 blocks: 512 GB of window moves before, far past the 20 s a verdict may take.
    expect(await verdictWithin(tornFrameOfTinyBlocks(4000), 20_000, true)).toBe('streamed 4000')
  })
})
