/**
 * The worker's side of `?log=`: open the response and check it is a log, before any byte is folded. The body is
 * then read in the worker itself, so a download never crosses the main thread (which is busy booting the page
 * when a link is opened) and no chunk is copied or posted on the way.
 */

export interface LogDownload {
  readonly body: ReadableStreamDefaultReader<Uint8Array>
  /** From Content-Length, when the server sent a usable one (the progress bar's total). */
  readonly totalBytes: number | null
}

/** Why a `?log=` URL could not be read, worded for the page's error banner. */
export class LogFetchError extends Error {}

/**
 * @param label the URL as the user gave it (relative, as typed), for the message
 * @throws LogFetchError with `Could not read LABEL: why`; an abort rejects with the platform's AbortError
 */
export async function openLogUrl(url: string, label: string, signal: AbortSignal): Promise<LogDownload> {
  let response: Response
  try {
    response = await fetch(url, { signal })
  } catch (error) {
    if (signal.aborted) throw error
    throw new LogFetchError(failure(label, error instanceof Error ? error.message : String(error)))
  }
  if (!response.ok)
    throw new LogFetchError(failure(label, `The server answered ${response.status} ${response.statusText} for ${label}.`))
  if (response.body === null) throw new LogFetchError(failure(label, `The response for ${label} has no body.`))
  // A static server answers unknown paths with its index page: say so instead of parsing HTML as a log.
  if (response.headers.get('content-type')?.includes('text/html') === true) {
    void response.body.cancel()
    throw new LogFetchError(failure(label, 'the server sent an HTML page, not a session log (is the path right?)'))
  }
  const length = Number(response.headers.get('content-length'))
  return { body: response.body.getReader(), totalBytes: Number.isFinite(length) && length > 0 ? length : null }
}

/** The message for a failure while the body streams (after it was opened). */
export function readFailure(label: string, error: unknown): string {
  return failure(label, error instanceof Error ? error.message : String(error))
}

function failure(label: string, why: string): string {
  return `Could not read ${label}: ${why}`
}
