import { token } from '../di-token.js';

/** Whether password hashing has capacity for one more request now. */
export interface HashingAdmission {
  /**
   * Returns when a request that hashes a password may start now; throws `ServiceUnavailable` ('overloaded') when
   * the hashing queue is full, so that a caller refuses before spending anything. Reserves nothing; never blocks.
   */
  admit(): void;
}

export const HASHING_ADMISSION = token<HashingAdmission>('HashingAdmission');
