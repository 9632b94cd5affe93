import type { OperatorRepository } from '../../application/api-keys/ports/operator-repository.port.js';
import type { CapabilityRecordedEvent } from '../../application/ports/event-log.port.js';
import type { OperatorEvent, OperatorRole } from '../../domain/api-keys/operator-role.js';
import { API_KEY_EVENTS } from './api-key-events.js';
import { OPERATORS } from './operator-tables.js';
import { appendedAs } from '../storage/event-tables.js';
import { type Store, put, remove } from '../storage/store.js';

/** The operator role over the storage primitive: put when absent, removed at the version read; the same for every store. */
export class StoreOperatorRepository implements OperatorRepository {
  constructor(private readonly store: Store) {}

  async isOperator(accountId: string): Promise<boolean> {
    return (await this.store.get(OPERATORS, accountId)) !== null;
  }

  async grant(role: OperatorRole, events: readonly CapabilityRecordedEvent<OperatorEvent>[]): Promise<boolean> {
    const outcome = await this.store.commit({ changes: [put(OPERATORS, role.accountId, role, null)], events: appendedAs(events, API_KEY_EVENTS) });
    return outcome.status === 'committed';
  }

  async revoke(accountId: string, events: readonly CapabilityRecordedEvent<OperatorEvent>[]): Promise<boolean> {
    const stored = await this.store.get(OPERATORS, accountId);
    if (!stored) return false;
    const outcome = await this.store.commit({ changes: [remove(OPERATORS, accountId, stored.version)], events: appendedAs(events, API_KEY_EVENTS) });
    return outcome.status === 'committed';
  }
}
