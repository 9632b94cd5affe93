/**
 * Shutdown as the HTTP adapter sees it. Draining: readiness answers 503 so load balancers stop sending
 * traffic, while requests are still served. Stopping: the server is closing and refuses new requests.
 */
export class ShutdownState {
  private phase: 'serving' | 'draining' | 'stopping' = 'serving';

  drain(): void {
    if (this.phase === 'serving') this.phase = 'draining';
  }

  stop(): void {
    this.phase = 'stopping';
  }

  get draining(): boolean {
    return this.phase !== 'serving';
  }

  get stopping(): boolean {
    return this.phase === 'stopping';
  }
}
