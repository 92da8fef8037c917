/**
 * The data of an offline bundle (`dsh-lens bundle`, one HTML file): which session, when it was made, how it was
 * redacted, and its logs, gzip-compressed and base64-encoded, in one `<script type="application/json"
 * id="dsh-lens-bundle">` element. The page's entry reads it (src/start-lens.ts) and opens the logs as dropped
 * files; the banner reads the rest. A data block is never executed, so the page's Content-Security-Policy does not
 * govern it; its JSON is written with `<` escaped, so no text in it can close the element.
 */

export const BUNDLE_ELEMENT_ID = 'dsh-lens-bundle'
export const BUNDLE_FORMAT = 'dsh-lens-bundle/1'
/** The viewer's bundle template as the build writes it (dist-bundle/), and where a server serves it, beside the page. */
export const BUNDLE_TEMPLATE_FILE = 'dsh-lens-bundle.html'
/** Where the bundle builder's template takes the data element. */
export const BUNDLE_DATA_SLOT = '<!--dsh-lens-bundle-data-->'

export interface BundleLog {
  /** The file's name (the root first; subagents as `subagents/<id>/session.jsonl.zstd`, the export's layout). */
  readonly path: string
  readonly sessionId: string | null
  readonly encoding: 'jsonl' | 'zstd'
  /** The log's bytes (redacted unless the bundle says not), gzip, base64. */
  readonly gzipBase64: string
}

export interface BundleRedaction {
  /** `redacted`: every secret found replaced; `not-redacted`: `--no-redact` was said. */
  readonly mode: 'redacted' | 'not-redacted'
  /** Home paths and user names replaced too. */
  readonly paths: boolean
  /** Secret occurrences replaced, over every log of the bundle. */
  readonly count: number
  /** Distinct secrets replaced, and kept by the allow list. */
  readonly secrets: number
  readonly allowed: number
}

export interface BundleData {
  readonly format: typeof BUNDLE_FORMAT
  /** ISO 8601, when the bundle was made. */
  readonly madeAt: string
  /** The root session: its id and title (the harness's `session/title`, when it logged one). */
  readonly session: { readonly id: string | null; readonly title: string | null }
  readonly redaction: BundleRedaction
  readonly logs: readonly BundleLog[]
  /** The dsh-lens version that made it. */
  readonly madeBy: string
}

/** The data element, ready for the template's slot. */
export function bundleDataElement(data: BundleData): string {
  const json = JSON.stringify(data).replace(/</g, '\\u003c')
  return `<script type="application/json" id="${BUNDLE_ELEMENT_ID}">${json}</script>`
}

/** The template with its data: the template must hold the slot exactly once. */
export function fillBundleTemplate(template: string, data: BundleData): string {
  const at = template.indexOf(BUNDLE_DATA_SLOT)
  if (at === -1 || template.indexOf(BUNDLE_DATA_SLOT, at + 1) !== -1)
    throw new Error('the bundle template has no single data slot')
  return template.slice(0, at) + bundleDataElement(data) + template.slice(at + BUNDLE_DATA_SLOT.length)
}

const isString = (v: unknown): v is string => typeof v === 'string'

/** The bundle's data from its element's text, or null when there is none or it is not a bundle this page reads. */
export function readBundleData(text: string | null | undefined): BundleData | null {
  if (text === null || text === undefined) return null
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return null
  }
  if (typeof value !== 'object' || value === null) return null
  const data = value as Partial<BundleData>
  if (data.format !== BUNDLE_FORMAT || !Array.isArray(data.logs) || data.logs.length === 0) return null
  if (!data.logs.every((log) => typeof log === 'object' && log !== null && isString(log.path) && isString(log.gzipBase64)))
    return null
  return data as BundleData
}
