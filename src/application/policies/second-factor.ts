import { steppedUp } from '../../domain/second-factor.js';
import { StepUpRequired } from '../errors.js';
import type { Limit } from '../ports/attempt-limits.port.js';
import type { Ports } from '../ports/ports.js';
import type { Principal } from '../shared/principal.js';

/** The second factor's settings (MFA_CHALLENGE_SECONDS, MFA_STEP_UP_SECONDS). */
export interface MfaSettings {
  /** How long a sign-in challenge may be answered. */
  readonly challengeSeconds: number;
  /** How recent a second-factor proof step-up asks for. */
  readonly stepUpSeconds: number;
}

/** What a sign-in challenge may be answered with (passkeys join them later). */
export const MFA_METHODS = ['totp', 'recovery_code'] as const;

/** The cap of wrong codes of one challenge, counted in the commit that records each. */
export const challengeLimit = (challengeId: string, settings: MfaSettings, max: number): Limit => ({
  key: `mfa-challenge:${challengeId}`,
  max,
  windowSeconds: settings.challengeSeconds,
});

/**
 * Step-up: resolves when the account has no confirmed factor, or when the principal's token proved one within
 * MFA_STEP_UP_SECONDS; throws StepUpRequired otherwise. One read (the factor).
 */
export async function requireStepUp(deps: Pick<Ports, 'secondFactors' | 'clock'>, settings: MfaSettings, principal: Principal): Promise<void> {
  const factor = await deps.secondFactors.find(principal.userId);
  if (!factor?.confirmed) return;
  if (!steppedUp(principal.amr, principal.authTime, deps.clock.now(), settings.stepUpSeconds)) throw new StepUpRequired(settings.stepUpSeconds);
}
