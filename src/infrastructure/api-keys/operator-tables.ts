import type { OperatorRole } from '../../domain/api-keys/operator-role.js';
import type { Table } from '../storage/store.js';

/**
 * The accounts holding the operator role (who may use the admin API with their own access token), keyed by account:
 * the account's own, erased with it and shown in its export.
 */
export const OPERATORS: Table<OperatorRole> = {
  name: 'operators',
  indexes: {},
  owner: { account: 'key', credential: false, exported: (role) => ({ grantedAt: role.grantedAt }) },
};
