/**
 * Each stored record's event type, as a small code per record: kept while a log is read (one lookup and one slot per
 * record), so an index built later (`LensLog`'s lazy indexes) parses only the records of the types it reads, and the
 * type counts are a scan of the codes instead of a map updated per event. Codes are given in order of first sight;
 * code 0 is a record that is not an object at all (a JSON number, string, array or null on its line).
 */

import { Int32Vector } from '../model/growable-array.ts'
import { eventTypeLabel } from '../model/log-event.ts'

/** The code of a record that is not an object (its type label is `eventTypeLabel(undefined)`). */
export const NOT_AN_OBJECT = 0

export class RecordTypes {
  private readonly codes = new Int32Vector(1024)
  private readonly byLabel = new Map<string, number>()
  private readonly labels: string[] = [eventTypeLabel(undefined)]

  /** The code of a type label, given one on first sight. */
  codeOf(label: string): number {
    let code = this.byLabel.get(label)
    if (code === undefined) {
      code = this.labels.push(label) - 1
      this.byLabel.set(label, code)
    }
    return code
  }

  /** The code a type label has been given, or -1 when no record has had it. */
  knownCode(label: string): number {
    return this.byLabel.get(label) ?? -1
  }

  /** Record the next record's type (`NOT_AN_OBJECT` or a code from `codeOf`). */
  push(code: number): void {
    this.codes.push(code)
  }

  /** The type code of record `record`. */
  at(record: number): number {
    return this.codes.get(record)
  }

  get length(): number {
    return this.codes.length
  }

  label(code: number): string {
    return this.labels[code] as string
  }

  /** Bytes held, for the memory benchmark. */
  get byteLength(): number {
    return this.codes.byteLength
  }
}
