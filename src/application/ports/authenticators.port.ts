import type { AuthMethod } from '../../domain/session.js';
import { token } from '../di-token.js';
import type { RequestMetadata } from './event-log.port.js';

/**
 * An account's authenticators beyond its codes (a passkey), as the core's rules reach them: the second-factor
 * challenge of an account holding one names their method, its answer completes the challenge, and an account without
 * a password proves its holder with one made for the request. The passkeys capability provides it; without it none is
 * held and no answer is accepted.
 */
export interface Authenticators {
  /** The method (RFC 8176 `amr`) an answer proves; null where no capability provides one (then none is ever asked). */
  readonly method: AuthMethod | null;
  /** Whether account `userId` holds one: its sign-in challenge then lists `method`. */
  heldBy(userId: string): Promise<boolean>;
  /**
   * Checks an answer (`navigator.credentials.get(...)`, as JSON) made now for account `userId`, and spends it (its
   * challenge answers once). Rejects with PasskeyRejected (a wrong answer: the caller counts it as a wrong code).
   */
  prove(answer: unknown, userId: string, metadata: RequestMetadata): Promise<void>;
}

/** No authenticator: what the core binds unless a capability provides them. */
export const NO_AUTHENTICATORS: Authenticators = {
  method: null,
  heldBy: () => Promise.resolve(false),
  prove: () => Promise.reject(new Error('No capability provides authenticators: `method` is null, so no answer is asked for')),
};

export const AUTHENTICATORS = token<Authenticators>('Authenticators');
