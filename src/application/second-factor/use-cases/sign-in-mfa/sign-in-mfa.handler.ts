import { CHALLENGE_MAX_WRONG_CODES, type MfaChallenge, challengeOpen } from '../../../../domain/second-factor/second-factor.js';
import { signInFailed } from '../../../../domain/user.js';
import { rawText, requireAll } from '../../../../domain/validation.js';
import { InvalidMfaCode, InvalidMfaToken, PasskeyRejected } from '../../../errors.js';
import type { RequestMetadata } from '../../../ports/event-log.port.js';
import type { SecondFactorPorts } from '../../ports/second-factor-ports.js';
import { type MfaSettings, parseFactorAnswer } from '../../../policies/second-factor.js';
import { challengeLimit, proveFactor } from '../../policies/totp.js';
import { type SessionSettings, signInSession } from '../../../policies/sessions.js';
import type { SignInThrottle } from '../../../policies/sign-in-throttle.js';
import { type AuthResult, recordEvents } from '../../../shared/auth-result.js';
import { recordedAsDeclared } from '../../events.js';
import { CHANGED, untilCommitted } from '../../../shared/optimistic.js';

/** Raw input values as the client sent them: the challenge, and a TOTP code or a recovery code (one of them). */
export interface SignInMfaCommand {
  readonly mfaToken: unknown;
  readonly code?: unknown;
  readonly recoveryCode?: unknown;
  /** A passkey's answer (`navigator.credentials.get`, as JSON), for an account with a passkey. */
  readonly response?: unknown;
  readonly metadata: RequestMetadata;
}

/**
 * Completes a sign-in that waits for its second factor (SignInHandler answered a challenge): a TOTP code of a step
 * not used yet, an unused recovery code, or (for an account with a passkey) a passkey's answer, checked by
 * the authenticators' port (then `amr` is ["pwd","webauthn"]). The challenge, the spent step or recovery code and RecoveryCodeUsed
 * commit together (the challenge removed: single use; the factor by compare-and-swap: a code accepted once across
 * instances), then the session opens with `amr` ["pwd","otp"] and the sign-in's failures are forgotten.
 *
 * A wrong code is counted, in the write that records it (SignInFailed, reason `wrong_code`), against the challenge
 * (5 wrong codes end it) and against the account's sign-in throttle; of N simultaneous wrong codes exactly the caps
 * are counted. A code already spent (a replay, or one answer of one code sent on N challenges at once) is refused
 * alike and counted nowhere: of N simultaneous answers of one code, one signs in.
 */
export class SignInMfaHandler {
  constructor(
    private readonly deps: Pick<SecondFactorPorts, 'users' | 'sessionViews' | 'userViews' | 'sessions' | 'secondFactors' | 'authenticators' | 'totp' | 'factorSecrets' | 'limits' | 'tokens' | 'refreshTokens' | 'clock' | 'ids'>,
    private readonly throttle: SignInThrottle,
    private readonly sessionSettings: SessionSettings,
    private readonly settings: MfaSettings,
  ) {}

  /**
   * Throws InvalidInput (no answer, both, a missing mfatoken); InvalidMfaToken for a challenge that is unknown,
   * expired, answered, ended after 5 wrong codes or outlived by a password change; TooManyAttempts while the
   * account's sign-ins are throttled; InvalidMfaCode for a wrong or used code.
   */
  async execute(command: SignInMfaCommand): Promise<AuthResult> {
    const { users, secondFactors, authenticators, factorSecrets, limits, clock } = this.deps;
    const { mfaToken, answer } = requireAll({ mfaToken: rawText('mfatoken', command.mfaToken), answer: parseFactorAnswer(command, authenticators.method !== null) });
    const challengeId = factorSecrets.challengeIdOf(mfaToken);
    const found = challengeId === null ? null : await secondFactors.findChallenge(challengeId);
    const user = found && (await users.findById(found.userId));
    if (!found || !user || !challengeOpen(found, clock.now(), user.sessionEpoch)) throw new InvalidMfaToken();
    const guard = challengeLimit(found.id, this.settings, CHALLENGE_MAX_WRONG_CODES);
    if (await limits.check(guard, clock.now())) throw new InvalidMfaToken();
    await this.throttle.check(user.email.value);
    const email = user.email.value;
    if (answer.kind === 'authenticator') {
      await authenticators.prove(answer.response, user.id, command.metadata).catch(async (error: unknown) => {
        if (error instanceof PasskeyRejected) await this.wrongAnswer(found, user.id, email, command.metadata);
        throw error;
      });
      const outcome = await secondFactors.completeChallenge(found, null, guard, clock.now(), []);
      if (outcome !== 'completed') throw new InvalidMfaToken();
    } else {
      await untilCommitted(async () => {
        const challenge = await secondFactors.findChallenge(found.id);
        const factor = await secondFactors.find(user.id);
        if (!challenge || !factor?.confirmed) throw new InvalidMfaToken();
        const at = clock.now();
        const proof = proveFactor(this.deps, factor, answer, user.id, email, at);
        if (proof === 'wrong') await this.wrongAnswer(challenge, user.id, email, command.metadata);
        if (typeof proof === 'string') throw new InvalidMfaCode(answer.kind);
        const outcome = await secondFactors.completeChallenge(challenge, factor, guard, at, recordedAsDeclared(proof, this.deps.ids, command.metadata));
        if (outcome === 'limited') throw new InvalidMfaToken();
        return outcome === 'completed' ? undefined : CHANGED;
      });
    }
    return signInSession(this.deps, this.sessionSettings, user.id, {
      amr: [found.firstFactor ?? 'pwd', answer.kind === 'authenticator' ? (authenticators.method ?? 'otp') : 'otp'],
      metadata: command.metadata,
      epoch: found.epoch,
      refused: () => new InvalidMfaToken(),
      record: (account, at) => account.recordSignIn(at),
      check: () => this.throttle.check(email),
      cleared: () => [this.throttle.limitNow(email)],
    });
  }

  /**
   * Counts a wrong answer (SignInFailed, `wrong_code`) against the challenge and the throttle in one write; throws
   * InvalidMfaToken when the challenge's cap was reached, TooManyAttempts at the throttle's. The caller then refuses it.
   */
  private async wrongAnswer(challenge: MfaChallenge, userId: string, email: string, metadata: RequestMetadata): Promise<void> {
    const { clock, ids } = this.deps;
    const failed = recordEvents([signInFailed(email, 'wrong_code', userId, clock.now())], ids, metadata);
    const counted = await this.throttle.failedAlong(email, challengeLimit(challenge.id, this.settings, CHALLENGE_MAX_WRONG_CODES), failed);
    if (counted === 'also') throw new InvalidMfaToken();
  }
}
