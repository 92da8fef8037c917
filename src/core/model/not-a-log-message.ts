/**
 * The words for input that is no session log (decode/not-a-log.ts decides; the page's banner and the CLI say these):
 * kept apart from the decoder so the page can import them without it.
 */

/** What a ZIP archive is called in the refusal (a session bundle: the viewer opens it with "Open sessions…"). */
export const ZIP_ARCHIVE = 'a ZIP archive'

/** The one sentence a refused input gets. */
export function notALogMessage(what: string): string {
  return `not a session log: this is ${what}`
}
