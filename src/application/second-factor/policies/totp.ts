import { type SecondFactorEvent, type TotpFactor, recoveryCodeUsed } from '../../../domain/second-factor/second-factor.js';
import type { FirstFactor } from '../../../domain/session.js';
import type { User } from '../../../domain/user.js';
import { InvalidMfaCode } from '../../errors.js';
import type { Limit } from '../../ports/attempt-limits.port.js';
import type { RequestMetadata } from '../../ports/event-log.port.js';
import type { CodeAnswer, Mfa } from '../../ports/mfa.port.js';
import { type MfaSettings, MFA_METHODS } from '../../policies/second-factor.js';
import type { SecondFactorRequired } from '../../shared/auth-result.js';
import { recordedAsDeclared } from '../events.js';
import { CHANGED, untilCommitted } from '../../shared/optimistic.js';
import type { SecondFactorPorts } from '../ports/second-factor-ports.js';

/** Recovery codes handed out at confirmation (and at each regeneration). */
export const RECOVERY_CODE_COUNT = 10;

/** The cap of wrong codes of one challenge, counted in the commit that records each. */
export const challengeLimit = (challengeId: string, settings: MfaSettings, max: number): Limit => ({
  key: `mfa-challenge:${challengeId}`,
  max,
  windowSeconds: settings.challengeSeconds,
});

/**
 * What a presented code proved: the events to record with the factor's save (none for a TOTP code, RecoveryCodeUsed
 * with the count left for a recovery code); 'spent' for a code of this factor that was accepted already (a TOTP step
 * at or before the last used, a used recovery code: a replay, or the loser of a race for it); 'wrong' otherwise.
 */
export type FactorProof = readonly SecondFactorEvent[] | 'spent' | 'wrong';

/**
 * Checks a presented factor against the account's factor, spending what it used on the factor (the code's time step,
 * once; the recovery code, once). Stored by the caller with compare-and-swap, which makes each single-use across
 * instances. Only 'wrong' counts as a failed attempt: a spent code is refused alike (401) but proves nothing either
 * way, so N simultaneous answers of one code give one sign-in and N - 1 refusals that throttle nobody.
 */
export function proveFactor(
  deps: Pick<SecondFactorPorts, 'totp' | 'factorSecrets'>,
  factor: TotpFactor,
  { kind, answer }: CodeAnswer,
  userId: string,
  email: string,
  at: Date,
): FactorProof {
  if (kind === 'code') {
    const secret = deps.factorSecrets.open(factor.sealedSecret, userId);
    if (secret === null) return 'wrong';
    const step = deps.totp.stepOf(secret, answer, at, factor.lastStep);
    if (step !== null && factor.accept(step, at)) return [];
    return deps.totp.stepOf(secret, answer, at, -1) === null ? 'wrong' : 'spent';
  }
  const matches = (mac: string): boolean => deps.factorSecrets.matches(answer, userId, mac);
  if (factor.useRecoveryCode(matches, at)) return [recoveryCodeUsed(userId, email, factor.recoveryCodesLeft, at)];
  return factor.spentRecoveryCode(matches) ? 'spent' : 'wrong';
}

/**
 * A sign-in whose first factor was right (`pwd`, or `oauth` from a provider), for an account with a second factor: a
 * challenge, stored under the MAC of its token and bound to the account's session epoch and that first factor, to
 * answer at POST /auth/sign-in/mfa within MFA_CHALLENGE_SECONDS.
 */
export async function openSignInChallenge(
  deps: Pick<SecondFactorPorts, 'secondFactors' | 'authenticators' | 'factorSecrets' | 'clock'>,
  settings: MfaSettings,
  user: Pick<User, 'id' | 'sessionEpoch'>,
  firstFactor: FirstFactor,
): Promise<SecondFactorRequired> {
  const mfaToken = deps.factorSecrets.newChallengeToken();
  const at = deps.clock.now();
  await deps.secondFactors.openChallenge({
    id: deps.factorSecrets.challengeIdOf(mfaToken) ?? '',
    userId: user.id,
    epoch: user.sessionEpoch,
    ...(firstFactor === 'pwd' ? {} : { firstFactor }),
    createdAt: at,
    expiresAt: new Date(at.getTime() + settings.challengeSeconds * 1000),
  });
  const { method } = deps.authenticators;
  const methods = method !== null && (await deps.authenticators.heldBy(user.id)) ? [...MFA_METHODS, method] : MFA_METHODS;
  return { mfaToken, methods, expiresIn: settings.challengeSeconds };
}

/**
 * The authenticator app and its recovery codes as the core's rules reach them (MFA): a confirmed factor asks a
 * sign-in for a challenge and step-up for a recent proof, and its codes prove the holder of an account without a
 * password.
 */
export class TotpMfa implements Mfa {
  constructor(
    private readonly deps: Pick<SecondFactorPorts, 'secondFactors' | 'authenticators' | 'totp' | 'factorSecrets' | 'clock' | 'ids'>,
    private readonly settings: MfaSettings,
  ) {}

  async requiredFor(userId: string): Promise<boolean> {
    return (await this.deps.secondFactors.find(userId))?.confirmed === true;
  }

  challenge(user: Pick<User, 'id' | 'sessionEpoch'>, firstFactor: FirstFactor): Promise<SecondFactorRequired> {
    return openSignInChallenge(this.deps, this.settings, user, firstFactor);
  }

  async proveCode(code: CodeAnswer, user: { readonly id: string; readonly email: string }, metadata: RequestMetadata): Promise<void> {
    const { secondFactors, clock, ids } = this.deps;
    await untilCommitted(async () => {
      const factor = await secondFactors.find(user.id);
      const proved = factor?.confirmed ? proveFactor(this.deps, factor, code, user.id, user.email, clock.now()) : 'wrong';
      if (typeof proved === 'string' || !factor) throw new InvalidMfaCode('code');
      return (await secondFactors.save(factor, recordedAsDeclared(proved, ids, metadata))) ? undefined : CHANGED;
    });
  }
}
