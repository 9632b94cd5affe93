import { InvalidInput } from '../../../../domain/domain-error.js';
import { Email } from '../../../../domain/email.js';
import { emailChangeRequested } from '../../../../domain/email-change/email-change.js';
import { requireAll } from '../../../../domain/validation.js';
import type { EmailChangePorts } from '../../ports/email-change-ports.js';
import { type HolderProof, missingProof, proveHolder } from '../../../policies/holder.js';
import { type MailSettings, mailLimit } from '../../../policies/mail.js';
import type { MfaSettings } from '../../../policies/second-factor.js';
import type { SessionSettings } from '../../../policies/sessions.js';
import { recordedAsDeclared } from '../../events.js';

export interface RequestEmailChangeCommand extends HolderProof {
  readonly newEmail: unknown;
}

/**
 * Asks to move the account to a new address (POST /auth/email). The address is a way in (a reset link goes to it), so
 * the holder is proved as for any credential (proveHolder). Two mails leave from the outbox: the confirmation to the
 * new address, and a notice to the current one whose link cancels the change and ends every session. Counted per
 * account against the verification mails' cap in the commit that records them: past it, the same answer and no mail.
 * Whether the new address has an account shows nowhere: its confirmation then fails like a spent link.
 */
export class RequestEmailChangeHandler {
  constructor(
    private readonly deps: Pick<EmailChangePorts, 'mfa' | 'reauthentications' | 'authenticators' | 'users' | 'sessions' | 'events' | 'limits' | 'hasher' | 'oneTimeTokens' | 'clock' | 'ids'>,
    private readonly settings: { readonly sessions: SessionSettings; readonly mfa: MfaSettings; readonly mail: MailSettings },
  ) {}

  /** Throws InvalidInput (`newemail`, or the current address again), then what proveHolder throws. */
  async execute(command: RequestEmailChangeCommand): Promise<void> {
    const { oneTimeTokens, limits, clock, ids } = this.deps;
    const parsed = Email.parse(command.newEmail, 'newemail');
    if (!parsed.ok) throw new InvalidInput([...parsed.issues, ...missingProof(command)]);
    const { newEmail } = requireAll({ newEmail: parsed });
    const user = await proveHolder(this.deps, this.settings, command, 'change-email');
    if (newEmail.value === user.email.value) throw new InvalidInput([{ field: 'newemail', code: 'UNCHANGED', message: "is already the account's address" }]);
    const binding = oneTimeTokens.bindingFor('email-change', { id: user.id, email: user.email.value, passwordHash: user.passwordHash, newEmail: newEmail.value });
    const at = clock.now();
    const events = recordedAsDeclared(emailChangeRequested(user.id, user.email.value, newEmail.value, binding, at, user.sessionEpoch), ids, command.metadata);
    await limits.take(mailLimit(this.settings.mail.verificationPerAddress, 'email-change', user.id), at, events);
  }
}
