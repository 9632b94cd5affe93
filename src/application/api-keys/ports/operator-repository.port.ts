import type { OperatorEvent, OperatorRole } from '../../../domain/api-keys/operator-role.js';
import { token } from '../../di-token.js';
import type { CapabilityRecordedEvent } from '../../ports/event-log.port.js';

/** Which accounts hold the operator role (who may use the admin API with their own access token). */
export interface OperatorRepository {
  /** Whether the account holds the role now (read from the store, so a revocation holds at once everywhere). */
  isOperator(accountId: string): Promise<boolean>;
  /** Grants the role with its events in one commit; false when the account holds it already (nothing written). Idempotent. */
  grant(role: OperatorRole, events: readonly CapabilityRecordedEvent<OperatorEvent>[]): Promise<boolean>;
  /** Takes the role back with its events in one commit; false when the account does not hold it (nothing written). Idempotent. */
  revoke(accountId: string, events: readonly CapabilityRecordedEvent<OperatorEvent>[]): Promise<boolean>;
}

export const OPERATOR_REPOSITORY = token<OperatorRepository>('OperatorRepository');
