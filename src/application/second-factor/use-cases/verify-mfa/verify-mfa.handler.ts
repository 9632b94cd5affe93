import { TooManyAttempts } from '../../../../domain/domain-error.js';
import { InvalidMfaCode, InvalidToken, MfaNotEnrolled } from '../../../errors.js';
import { signInFailed } from '../../../../domain/user.js';
import type { Limit } from '../../../ports/attempt-limits.port.js';
import type { RequestMetadata } from '../../../ports/event-log.port.js';
import type { SecondFactorPorts } from '../../ports/second-factor-ports.js';
import { type MfaSettings, requireFactorAnswer } from '../../../policies/second-factor.js';
import { proveFactor } from '../../policies/totp.js';
import { tokensFor } from '../../../policies/sessions.js';
import type { SignInThrottle } from '../../../policies/sign-in-throttle.js';
import { type AuthResult, recordEvents, toAccountResource } from '../../../shared/auth-result.js';
import { recordedAsDeclared } from '../../events.js';
import { CHANGED, untilCommitted } from '../../../shared/optimistic.js';
import type { Principal } from '../../../shared/principal.js';

export interface VerifyMfaCommand {
  readonly principal: Principal;
  readonly code?: unknown;
  readonly recoveryCode?: unknown;
  /** A passkey's answer (`navigator.credentials.get` after POST /auth/passkeys/authentication-options with the bearer). */
  readonly response?: unknown;
  readonly metadata: RequestMetadata;
}

/** Wrong codes one session may present here within MFA_STEP_UP_SECONDS; then it waits. */
export const STEP_UP_MAX_WRONG_CODES = 5;

/**
 * Step-up: the signed-in holder proves the second factor again (a code of a step not used yet, or an unused recovery
 * code, or a passkey of the account: then `amr` gains `webauthn`), and the current session is raised: its `amr` gains `otp` and `auth_time` moves to now (Session.proved), so
 * the access token this answers passes step-up for MFA_STEP_UP_SECONDS. Tokens issued before keep what they said, and
 * the refresh token rotates with no grace (Session.proved): the one from before is used up, so a copy of it is reuse.
 *
 * Two writes: the factor by compare-and-swap (the step or code spent, once across instances), then the session. A
 * wrong code is counted on the session (5 within the window) and on the account's sign-in throttle, in one write; a
 * spent one (a replay, or the losers of N simultaneous answers of one code) is refused and counted nowhere.
 */
export class VerifyMfaHandler {
  constructor(
    private readonly deps: Pick<SecondFactorPorts, 'users' | 'sessions' | 'secondFactors' | 'authenticators' | 'totp' | 'factorSecrets' | 'limits' | 'tokens' | 'refreshTokens' | 'clock' | 'ids'>,
    private readonly throttle: SignInThrottle,
    private readonly settings: MfaSettings,
  ) {}

  /** Throws InvalidInput, MfaNotEnrolled, InvalidMfaCode, TooManyAttempts, or InvalidToken once the session ended. */
  async execute(command: VerifyMfaCommand): Promise<AuthResult> {
    const { users, sessions, secondFactors, clock, ids } = this.deps;
    const { authenticators } = this.deps;
    const answer = requireFactorAnswer(command, authenticators.method !== null);
    const user = await users.findById(command.principal.userId);
    if (!user) throw new InvalidToken();
    const email = user.email.value;
    if (answer.kind === 'authenticator') await authenticators.prove(answer.response, user.id, command.metadata);
    else {
      await this.throttle.check(email);
      await untilCommitted(async () => {
        const factor = await secondFactors.find(user.id);
        if (!factor?.confirmed) throw new MfaNotEnrolled();
        const at = clock.now();
        const proof = proveFactor(this.deps, factor, answer, user.id, email, at);
        if (proof === 'spent') throw new InvalidMfaCode(answer.kind);
        if (proof === 'wrong') {
          const failed = recordEvents([signInFailed(email, 'wrong_code', user.id, at)], ids, command.metadata);
          const counted = await this.throttle.failedAlong(email, this.limitOf(command.principal.sessionId), failed);
          throw counted === 'also' ? new TooManyAttempts(this.settings.stepUpSeconds) : new InvalidMfaCode(answer.kind);
        }
        return (await secondFactors.save(factor, recordedAsDeclared(proof, ids, command.metadata))) ? undefined : CHANGED;
      });
    }
    const session = await untilCommitted(async () => {
      const current = await sessions.findById(command.principal.sessionId);
      const at = clock.now();
      if (!current?.isLive(at, user.sessionEpoch) || current.userId !== user.id) throw new InvalidToken();
      current.proved([answer.kind === 'authenticator' ? (authenticators.method ?? 'otp') : 'otp'], at);
      return (await sessions.save(current, [])) ? current : CHANGED;
    });
    return { user: toAccountResource(user), ...(await tokensFor(this.deps, session)) };
  }

  private limitOf(sessionId: string): Limit {
    return { key: `step-up:${sessionId}`, max: STEP_UP_MAX_WRONG_CODES, windowSeconds: this.settings.stepUpSeconds };
  }
}
