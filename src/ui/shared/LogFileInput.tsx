/**
 * The hidden file input behind a "pick one log" button (Open log…, Compare…): it takes one plain or zstd log, hands
 * it over, and forgets it, so picking the same file again is a change too.
 */

import type { Ref } from 'react'

const LOG_TYPES = '.jsonl,.zstd,.jsonl.zstd,application/json,text/plain'

export function LogFileInput({
  ref,
  testId,
  onFile,
}: {
  ref: Ref<HTMLInputElement>
  testId: string
  onFile: (file: File) => void
}) {
  return (
    <input
      ref={ref}
      type="file"
      data-testid={testId}
      accept={LOG_TYPES}
      className="hidden"
      aria-hidden="true"
      tabIndex={-1}
      onChange={(event) => {
        const file = event.currentTarget.files?.[0]
        if (file !== undefined) onFile(file)
        event.currentTarget.value = ''
      }}
    />
  )
}
