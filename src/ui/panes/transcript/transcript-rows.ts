/** Pure styling decisions for transcript rows. */

/** Row background: selected beats counterpart (the entry the other pane's selection points at). */
export function transcriptRowClass(selected: boolean, counterpart: boolean): string {
  if (selected) return 'bg-accent-soft'
  if (counterpart) return 'bg-counterpart'
  return 'hover:bg-raised'
}
