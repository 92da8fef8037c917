/**
 * JSON.stringify for untrusted events: JSON.parse accepts nesting far deeper than JSON.stringify can print (V8
 * parses iteratively, prints recursively), so a 100,000-deep line loads fine and then throws a RangeError in every
 * preview. Here it becomes a plain note instead, so the inspector and the rows still render the event.
 */

export const TOO_DEEP_NOTE = '[not shown: nested too deeply to print (the raw line is in the log)]'

export function safeStringify(value: unknown, indent?: number): string | undefined {
  try {
    return JSON.stringify(value, null, indent)
  } catch (error) {
    if (error instanceof RangeError) return TOO_DEEP_NOTE
    throw error
  }
}
