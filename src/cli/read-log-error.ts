/** A log the CLI cannot read (missing, a directory, no permission, too large for the heap): one line, exit 2. */
export class UnreadableLogError extends Error {}
