/**
 * Thrown by an adapter that cannot serve right now (overloaded, or its backing service unreachable).
 * The request may be retried after `retryAfterSeconds`; nothing was written.
 */
export class ServiceUnavailable extends Error {
  readonly code = 'SERVICE_UNAVAILABLE';

  constructor(
    readonly reason: 'overloaded' | 'store_unavailable',
    readonly retryAfterSeconds: number,
  ) {
    super(`Service unavailable: ${reason}`);
    this.name = 'ServiceUnavailable';
  }
}
