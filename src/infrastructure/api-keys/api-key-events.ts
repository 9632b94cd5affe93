import type { ApiKeyEvent } from '../../domain/api-keys/api-key.js';
import type { OperatorEvent } from '../../domain/api-keys/operator-role.js';
import type { EventDeclarations } from '../../application/ports/event-declarations.js';

/**
 * The API keys' events as their manifest declares them (their repositories stamp them): all kept; the operator role's
 * are the account's and show in its activity (as by an administrator: the command line granted or revoked it).
 */
export const API_KEY_EVENTS: EventDeclarations<ApiKeyEvent | OperatorEvent> = {
  ApiKeyCreated: 'keep',
  ApiKeyRevoked: 'keep',
  OperatorGranted: { retention: 'keep', activity: true },
  OperatorRevoked: { retention: 'keep', activity: true },
};
