import type { Ports } from '../../ports/ports.js';
import type { PasskeyRepository } from './passkey-repository.port.js';
import type { WebAuthn } from './webauthn.port.js';

/**
 * What the passkeys' use cases read: the core's ports and the capability's own (its manifest binds them: the passkeys
 * and their ceremonies' challenges, and the WebAuthn verifier).
 */
export interface PasskeysPorts extends Ports {
  readonly passkeys: PasskeyRepository;
  readonly webauthn: WebAuthn;
}
