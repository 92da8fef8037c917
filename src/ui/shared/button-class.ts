/**
 * The look of every plain button (top bar, dialogs, panels): one class string, so the top bar's width is one sum. Its
 * padding is tight because the top bar must hold every control on one line at 1280 px (e2e/laptop.spec.ts).
 */
export const BUTTON = 'rounded border border-line bg-raised px-1.5 py-0.5 text-xs hover:bg-accent-soft disabled:opacity-50'
