/**
 * Thrown when a store operation outlived its deadline (MONGODB_TIMEOUT_MS). The driver's own per-operation
 * deadline (`timeoutMS`, CSOT) is a no-op in mongodb 7.x, so the adapter keeps its own.
 */
export class StoreDeadlineExceeded extends Error {
  constructor(readonly timeoutMs: number) {
    super(`MongoDB operation did not finish within ${timeoutMs} ms`);
    this.name = 'StoreDeadlineExceeded';
  }
}

/**
 * Runs `operation` with a signal that aborts after `timeoutMs`; rejects with StoreDeadlineExceeded at that moment
 * even when the operation ignores the signal (the driver honours it on reads, not on writes: a write left behind
 * ends on its own, bounded by the socket timeout and `wtimeoutMS`).
 */
export async function withDeadline<T>(timeoutMs: number, operation: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const expired = new StoreDeadlineExceeded(timeoutMs);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort(expired);
      reject(expired);
    }, timeoutMs);
  });
  const running = operation(controller.signal);
  running.catch(() => undefined);
  try {
    return await Promise.race([running, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
