import { Email } from '../../../domain/email.js';
import { passwordResetRequested } from '../../../domain/mail-events.js';
import { requireAll } from '../../../domain/validation.js';
import type { RequestMetadata } from '../../ports/event-log.port.js';
import type { Ports } from '../../ports/ports.js';
import { type MailSettings, mailLimit } from '../../policies/mail.js';
import { recordEvents } from '../../shared/auth-result.js';

export interface RequestPasswordResetCommand {
  readonly email: unknown;
  readonly metadata: RequestMetadata;
}

/**
 * Records a reset request; the mail leaves later, from the outbox. The same work and the same answer whether or not
 * the address has an account: one account read and one write that counts the request against `resetPerAddress` and
 * records it, whatever the address's history. Past the cap nothing is recorded (and no mail sent), with the same
 * answer again; simultaneous requests past it record nothing either (the count is taken in that write).
 */
export class RequestPasswordResetHandler {
  constructor(
    private readonly deps: Pick<Ports, 'users' | 'limits' | 'oneTimeTokens' | 'clock' | 'ids'>,
    private readonly settings: MailSettings,
  ) {}

  /** Throws InvalidInput for a malformed address only. */
  async execute(command: RequestPasswordResetCommand): Promise<void> {
    const { users, limits, oneTimeTokens, clock, ids } = this.deps;
    const { email } = requireAll({ email: Email.parse(command.email) });
    const now = clock.now();
    const user = await users.findByEmail(email.value);
    const binding = user ? oneTimeTokens.bindingFor('reset', { id: user.id, email: user.email.value, passwordHash: user.passwordHash }) : null;
    const requested = recordEvents([passwordResetRequested(email.value, user?.id ?? null, binding, now)], ids, command.metadata);
    await limits.take(mailLimit(this.settings.resetPerAddress, 'reset', email.value), now, requested);
  }
}
