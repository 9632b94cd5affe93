import type { ApiKeyEvent } from '../../domain/api-keys/api-key.js';
import type { Retention } from '../storage/retention.js';

/** The retention of each of the API keys' events (their manifest declares it; their repository stamps it): kept. */
export const API_KEY_EVENTS: { readonly [T in ApiKeyEvent['type']]: Retention } = {
  ApiKeyCreated: 'keep',
  ApiKeyRevoked: 'keep',
};
