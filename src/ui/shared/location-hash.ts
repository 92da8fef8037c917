/** Pure: the URL hash that carries the cursor and selection, `#seq=N&sel=M`. */

export interface HashState {
  readonly seq: number | null
  readonly sel: number | null
}

function int(value: string | null): number | null {
  if (value === null || !/^\d+$/.test(value)) return null
  return Number(value)
}

export function parseHash(hash: string): HashState {
  const params = new URLSearchParams(hash.replace(/^#/, ''))
  return { seq: int(params.get('seq')), sel: int(params.get('sel')) }
}

export function formatHash(state: HashState): string {
  if (state.seq === null) return ''
  return `#seq=${state.seq}${state.sel !== null ? `&sel=${state.sel}` : ''}`
}
