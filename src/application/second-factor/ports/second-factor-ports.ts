import type { Ports } from '../../ports/ports.js';
import type { FactorSecrets } from './factor-secrets.port.js';
import type { SecondFactorRepository } from './second-factor-repository.port.js';
import type { Totp } from './totp.port.js';

/**
 * What the second factor's use cases read: the core's ports and its own (its manifest binds them: the factors and the
 * sign-in challenges, the TOTP algorithm, and the keyed secrets, MACs and challenge tokens).
 */
export interface SecondFactorPorts extends Ports {
  readonly secondFactors: SecondFactorRepository;
  readonly totp: Totp;
  readonly factorSecrets: FactorSecrets;
}
