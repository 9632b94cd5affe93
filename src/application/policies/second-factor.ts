import { InvalidInput } from '../../domain/domain-error.js';
import { type FirstFactor, type SecondFactorEvent, type TotpFactor, recoveryCodeUsed, steppedUp } from '../../domain/second-factor.js';
import type { User } from '../../domain/user.js';
import type { SecondFactorRequired } from '../shared/auth-result.js';
import { type Parsed, invalid, valid } from '../../domain/validation.js';
import { InvalidMfaCode, StepUpRequired } from '../errors.js';
import type { Limit } from '../ports/attempt-limits.port.js';
import type { Ports } from '../ports/ports.js';
import type { CodeAnswer, Mfa } from '../ports/mfa.port.js';
import type { RequestMetadata } from '../ports/event-log.port.js';
import { recordEvents } from '../shared/auth-result.js';
import { CHANGED, untilCommitted } from '../shared/optimistic.js';

export type { CodeAnswer } from '../ports/mfa.port.js';
import type { Principal } from '../shared/principal.js';

/** The second factor's settings (MFA_CHALLENGE_SECONDS, MFA_STEP_UP_SECONDS). */
export interface MfaSettings {
  /** How long a sign-in challenge may be answered. */
  readonly challengeSeconds: number;
  /** How recent a second-factor proof step-up asks for. */
  readonly stepUpSeconds: number;
}

/** Recovery codes handed out at confirmation (and at each regeneration). */
export const RECOVERY_CODE_COUNT = 10;

/** What a sign-in challenge may be answered with, whatever the account holds besides its factor. */
export const MFA_METHODS = ['totp', 'recovery_code'] as const;

/**
 * Every method a challenge may name (its `methods`, as documented): MFA_METHODS, and the authenticators' (`webauthn`,
 * for an account with a passkey: the port AUTHENTICATORS).
 */
export const SECOND_FACTOR_METHODS = [...MFA_METHODS, 'webauthn'] as const;

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
export async function requireStepUp(deps: Pick<Ports, 'mfa' | 'clock'>, settings: MfaSettings, principal: Principal): Promise<void> {
  if (!(await deps.mfa.requiredFor(principal.userId))) return;
  if (!steppedUp(principal.amr, principal.authTime, deps.clock.now(), settings.stepUpSeconds)) throw new StepUpRequired(settings.stepUpSeconds);
}


/** A second factor presented: a code, or an authenticator's answer (a passkey's: `navigator.credentials.get`, as JSON). */
export type FactorAnswer = CodeAnswer | { readonly kind: 'authenticator'; readonly response: unknown };

const given = (value: unknown): boolean => value !== undefined && value !== null && value !== '';

/** What a command may carry as its second factor. */
export interface FactorInput {
  readonly code?: unknown;
  readonly recoveryCode?: unknown;
  readonly response?: unknown;
}

/**
 * Exactly one of `code`, `recoverycode` and (where `authenticators`: a capability provides them) `response`; codes
 * must be strings. The issue on `code` (or on the field of a non-string) otherwise.
 */
export function parseFactorAnswer(input: FactorInput, authenticators = false): Parsed<FactorAnswer> {
  const sent = [given(input.code), given(input.recoveryCode), authenticators && given(input.response)].filter(Boolean).length;
  const choices = authenticators ? 'a code, a recovery code or a passkey answer (response)' : 'a code or a recovery code';
  if (sent !== 1) return invalid('code', sent === 0 ? `send ${choices}` : `send ${choices}, only one`);
  if (authenticators && given(input.response)) return valid({ kind: 'authenticator', response: input.response });
  const [kind, raw] = given(input.code) ? (['code', input.code] as const) : (['recoverycode', input.recoveryCode] as const);
  return typeof raw === 'string' ? valid({ kind, answer: raw.trim() }) : invalid(kind, 'must be a string');
}

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
  deps: Pick<Ports, 'totp' | 'factorSecrets'>,
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

/** The one answer of a command that must carry a factor, parsed, or InvalidInput. */
export const requireFactorAnswer = (input: FactorInput, authenticators = false): FactorAnswer => {
  const parsed = parseFactorAnswer(input, authenticators);
  if (!parsed.ok) throw new InvalidInput(parsed.issues);
  return parsed.value;
};

/**
 * A sign-in whose first factor was right (`pwd`, or `oauth` from a provider), for an account with a second factor: a
 * challenge, stored under the MAC of its token and bound to the account's session epoch and that first factor, to
 * answer at POST /auth/sign-in/mfa within MFA_CHALLENGE_SECONDS.
 */
export async function openSignInChallenge(
  deps: Pick<Ports, 'secondFactors' | 'authenticators' | 'factorSecrets' | 'clock'>,
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
    private readonly deps: Pick<Ports, 'secondFactors' | 'authenticators' | 'totp' | 'factorSecrets' | 'clock' | 'ids'>,
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
      return (await secondFactors.save(factor, recordEvents(proved, ids, metadata))) ? undefined : CHANGED;
    });
  }
}
