/**
 * A log the CLI cannot read (missing, a directory, no permission, too large for the heap, not a session log at all):
 * one line, exit 2.
 */
export class UnreadableLogError extends Error {}
