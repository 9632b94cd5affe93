import type { OperatorEvent } from '../../../../domain/api-keys/operator-role.js';
import { InvalidInput } from '../../../../domain/domain-error.js';
import { Email } from '../../../../domain/email.js';
import type { CapabilityRecordedEvent, RequestMetadata } from '../../../ports/event-log.port.js';
import { AccountNotFound } from '../../errors.js';
import type { ApiKeyPorts } from '../../ports/api-key-ports.js';

export interface SetOperatorRoleCommand {
  /** The account's address, as its holder signs in with it. */
  readonly email: string;
  /** True: grant the role (`grant-operator`); false: take it back (`revoke-operator`). */
  readonly operator: boolean;
  readonly metadata: RequestMetadata;
}

export interface OperatorRoleResult {
  readonly accountId: string;
  readonly email: string;
  readonly operator: boolean;
  /** False when the account held (or did not hold) the role already: nothing was written. */
  readonly changed: boolean;
}

/**
 * Grants or revokes an account's operator role (`npm run admin -- grant-operator | revoke-operator <email>`); both
 * idempotent. Records OperatorGranted or OperatorRevoked on the account (actor `cli`) when the role changed. A
 * revocation holds at once: every admin request reads the role. Throws InvalidInput naming `email`, AccountNotFound.
 */
export class SetOperatorRoleHandler {
  constructor(private readonly deps: Pick<ApiKeyPorts, 'operators' | 'users' | 'clock' | 'ids'>) {}

  async execute(command: SetOperatorRoleCommand): Promise<OperatorRoleResult> {
    const { operators, users, clock, ids } = this.deps;
    const email = Email.parse(command.email);
    if (!email.ok) throw new InvalidInput(email.issues);
    const account = await users.findByEmail(email.value.value);
    if (!account) throw new AccountNotFound();
    const at = clock.now();
    const event: CapabilityRecordedEvent<OperatorEvent> = {
      type: command.operator ? 'OperatorGranted' : 'OperatorRevoked',
      aggregateId: account.id,
      occurredAt: at,
      payload: { accountId: account.id },
      eventId: ids.next(),
      metadata: { ...command.metadata, actor: 'cli' },
    };
    const changed = command.operator ? await operators.grant({ accountId: account.id, grantedAt: at }, [event]) : await operators.revoke(account.id, [event]);
    return { accountId: account.id, email: email.value.value, operator: command.operator, changed };
  }
}
