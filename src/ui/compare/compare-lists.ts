/**
 * What the Compare view's three lists (the aligned steps, run A's and run B's request) share. They mount in one frame
 * when the overview arrives: fewer rows beyond each viewport keep that frame short (docs/benchmarks.md, the Compare
 * view's first screen); the other panes keep VirtualList's default.
 */
export const COMPARE_OVERSCAN_ROWS = 2
