import { token } from '../di-token.js';

/** Whether the store behind the repositories can serve. */
export interface StoreHealth {
  /**
   * Resolves when the store is reachable and accepts a write; rejects with `ServiceUnavailable`
   * ('store_unavailable') otherwise. Idempotent; leaves no user-visible data behind.
   */
  check(): Promise<void>;
}

export const STORE_HEALTH = token<StoreHealth>('StoreHealth');
