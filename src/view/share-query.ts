/**
 * Share… in the worker, one job at a time: `review` reads each log again (share-logs.ts), scans it, fetches the
 * viewer's bundle template, and answers what a bundle would hold (each log's secrets grouped by hash, its home paths);
 * `build` writes the bundle of that job with the user's choices (share-bundle.ts); `cancel` (the dialog closed)
 * lets go of the logs read for it. A new review drops the last job.
 */

import { homePathRules, sessionTitle, type LensLog } from '../core/index.ts'
import { SECRETS_LISTED } from '../protocol/secrets.ts'
import type { ShareBuildArgs, ShareBundleFile, ShareLogReview, ShareReview, ShareReviewArgs } from '../protocol/share.ts'
import type { OpenLog } from './open-log.ts'
import { secretGroups } from './secrets-query.ts'
import { buildBundle, fetchTemplate, TemplateMissingError } from './share-bundle.ts'
import { prepareLog, type PreparedLog, type ShareFetch } from './share-logs.ts'

interface ShareJob {
  readonly id: number
  readonly logs: readonly PreparedLog[]
  readonly session: ShareReview['session']
  readonly template: string | null
  readonly templateMissing: string | null
}

/** The home paths and `name@` that "redact paths" would replace: user names found, and places. */
export function homePathCount(log: LensLog): { names: number; places: number } {
  const rules = homePathRules(log)
  if (rules.length === 0) return { names: 0, places: 0 }
  let places = 0
  const texts = log.recordTexts
  const header = log.header === null ? '' : JSON.stringify(log.header)
  for (const rule of rules) places += rule.count(header)
  for (let r = 0, block = -1; r < texts.length; r++) {
    if (texts.blockOf(r) === block) continue
    block = texts.blockOf(r)
    const text = texts.blockText(block)
    for (const rule of rules) places += rule.count(text)
  }
  return { names: rules.length, places }
}

function reviewOf(log: PreparedLog): ShareLogReview {
  const places = log.scanned.places
  const paths = homePathCount(log.log)
  return {
    path: log.path,
    sessionId: log.sessionId,
    events: log.log.length,
    encoding: log.log.encoding ?? 'jsonl',
    note: log.note,
    total: places.length,
    findings: places.slice(0, SECRETS_LISTED),
    distinct: secretGroups(places),
    pathNames: paths.names,
    pathPlaces: paths.places,
  }
}

export class ShareQueries {
  private job: ShareJob | null = null
  private jobs = 0

  /** @param io how logs and the template are read again (the worker's fetch). */
  constructor(private readonly io: ShareFetch) {}

  async review(open: OpenLog, args: ShareReviewArgs): Promise<ShareReview> {
    const id = ++this.jobs
    this.job = null
    let template: string | null = null
    let templateMissing: string | null = null
    try {
      template = await fetchTemplate(this.io, args.templateUrl)
    } catch (error) {
      if (!(error instanceof TemplateMissingError)) throw error
      templateMissing = error.message
    }
    const logs: PreparedLog[] = []
    for (const source of args.logs) {
      logs.push(await prepareLog(open, source, this.io))
      if (id !== this.jobs) throw new Error('a newer Share… review replaced this one')
    }
    const root = logs[0]
    if (root === undefined) throw new Error('Share… was given no log')
    const session = { id: root.sessionId, title: sessionTitle(root.log) }
    this.job = { id, logs, session, template, templateMissing }
    return { job: id, session, logs: logs.map(reviewOf), templateMissing }
  }

  build(args: ShareBuildArgs): Promise<ShareBundleFile> {
    const job = this.job
    if (job === null || job.id !== args.job)
      return Promise.reject(new Error('this review is no longer current: open Share… again'))
    if (job.template === null) return Promise.reject(new TemplateMissingError(job.templateMissing ?? 'no bundle template'))
    return buildBundle(job.logs, job.session, job.template, args)
  }

  cancel(job: number): null {
    if (this.job?.id === job) this.job = null
    return null
  }
}
