/**
 * Let queued messages (a cancel, cursor queries) run before the next slice of long work. `Blob.arrayBuffer()` may
 * resolve without a macrotask turn (Node does for in-memory blobs), and a MessageChannel hop avoids setTimeout's
 * 4 ms clamp on nested timers.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel()
    channel.port1.onmessage = () => {
      channel.port1.close()
      resolve()
    }
    channel.port2.postMessage(null)
  })
}
