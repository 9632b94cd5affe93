import { emailChangeCancelled } from '../../domain/email-change/email-change.js';
import type { User } from '../../domain/user.js';
import type { RecordedEvent, RequestMetadata } from '../ports/event-log.port.js';
import type { IdGenerator } from '../ports/id-generator.port.js';
import type { PendingChanges } from '../ports/pending-changes.port.js';
import type { EmailChangeRepository } from './ports/email-change-repository.port.js';
import { recordedAsDeclared } from './events.js';

/**
 * A new password ends the account's pending change of address (the core's PENDING_CHANGES): EmailChangeCancelled,
 * `password_changed`, in the password's commit. The change is dead anyway once the epoch moves (changeStillPending);
 * this removes it from the account's view and says so in its activity.
 */
export class PendingEmailChanges implements PendingChanges {
  constructor(private readonly deps: { readonly emailChanges: EmailChangeRepository; readonly ids: IdGenerator }) {}

  async endedByNewPassword(user: User, at: Date, metadata: RequestMetadata): Promise<readonly RecordedEvent[]> {
    const pending = await this.deps.emailChanges.pendingOf(user.id);
    return pending ? recordedAsDeclared([emailChangeCancelled(user.id, user.email.value, pending.newEmail, at, 'password_changed')], this.deps.ids, metadata) : [];
  }
}
