/** A command that serves until Ctrl+C or a `kill`: resolves on the first SIGINT or SIGTERM, then stops listening. */
export function untilStopped(): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      resolve()
    }
    process.on('SIGINT', stop)
    process.on('SIGTERM', stop)
  })
}
