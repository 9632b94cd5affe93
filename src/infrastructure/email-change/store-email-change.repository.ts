import type { EmailChangeRepository } from '../../application/email-change/ports/email-change-repository.port.js';
import type { PendingEmailChange, RevertibleEmailChange } from '../../domain/email-change/email-change.js';
import { PENDING_EMAIL_CHANGES, REVERTIBLE_EMAIL_CHANGES } from './email-change-tables.js';
import type { Store } from '../storage/store.js';

/** Pending and revertible changes of address over the storage primitive (written by their events' projection). */
export class StoreEmailChangeRepository implements EmailChangeRepository {
  constructor(private readonly store: Store) {}

  async pendingOf(userId: string): Promise<PendingEmailChange | null> {
    return (await this.store.get(PENDING_EMAIL_CHANGES, userId))?.value ?? null;
  }

  async revertibleOf(userId: string): Promise<RevertibleEmailChange | null> {
    return (await this.store.get(REVERTIBLE_EMAIL_CHANGES, userId))?.value ?? null;
  }
}
