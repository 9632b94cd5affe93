import { Email } from '../../../domain/email.js';
import { passwordResetRequested } from '../../../domain/mail-events.js';
import { requireAll } from '../../../domain/validation.js';
import type { RequestMetadata } from '../../ports/event-log.port.js';
import type { Ports } from '../../ports/ports.js';
import { type MailSettings, atMailCap } from '../../policies/mail.js';
import { recordEvents } from '../../shared/auth-result.js';

export interface RequestPasswordResetCommand {
  readonly email: unknown;
  readonly metadata: RequestMetadata;
}

/**
 * Records a reset request; the mail leaves later, from the outbox. The same work and the same answer whether or not
 * the address has an account: one record of recent requests read, one account read, one append, no mail in the
 * request, whatever the address's history. Past `resetPerAddress` requests in the window nothing is recorded (and no
 * mail sent), with the same answer again.
 */
export class RequestPasswordResetHandler {
  constructor(
    private readonly deps: Pick<Ports, 'users' | 'events' | 'oneTimeTokens' | 'clock' | 'ids'>,
    private readonly settings: MailSettings,
  ) {}

  /** Throws InvalidInput for a malformed address only. */
  async execute(command: RequestPasswordResetCommand): Promise<void> {
    const { users, events, oneTimeTokens, clock, ids } = this.deps;
    const { email } = requireAll({ email: Email.parse(command.email) });
    const now = clock.now();
    const capped = await atMailCap(events, 'reset', email.value, this.settings.resetPerAddress, now);
    const user = await users.findByEmail(email.value);
    if (capped) return;
    const binding = user ? oneTimeTokens.bindingFor('reset', { id: user.id, email: user.email.value, passwordHash: user.passwordHash }) : null;
    await events.append(recordEvents([passwordResetRequested(email.value, user?.id ?? null, binding, now)], ids, command.metadata));
  }
}
