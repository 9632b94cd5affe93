import { CHALLENGE_MAX_WRONG_CODES, type MfaChallenge, challengeOpen } from '../../../domain/second-factor.js';
import { signInFailed } from '../../../domain/user.js';
import { rawText, requireAll } from '../../../domain/validation.js';
import { InvalidMfaCode, InvalidMfaToken } from '../../errors.js';
import type { RequestMetadata } from '../../ports/event-log.port.js';
import type { Ports } from '../../ports/ports.js';
import { type MfaSettings, challengeLimit, parseFactorAnswer, proveFactor } from '../../policies/second-factor.js';
import { NOTHING_EVICTED, type SessionSettings, evictBeyondCap, openSession, tokensFor, trimToCap } from '../../policies/sessions.js';
import type { SignInThrottle } from '../../policies/sign-in-throttle.js';
import { type AuthResult, recordEvents, toAccountResource } from '../../shared/auth-result.js';
import { CHANGED, untilCommitted } from '../../shared/optimistic.js';

/** Raw input values as the client sent them: the challenge, and a TOTP code or a recovery code (one of them). */
export interface SignInMfaCommand {
  readonly mfaToken: unknown;
  readonly code?: unknown;
  readonly recoveryCode?: unknown;
  readonly metadata: RequestMetadata;
}

/**
 * Completes a sign-in that waits for its second factor (SignInHandler answered a challenge): a TOTP code of a step
 * not used yet, or an unused recovery code. The challenge, the spent step or recovery code and RecoveryCodeUsed
 * commit together (the challenge removed: single use; the factor by compare-and-swap: a code accepted once across
 * instances), then the session opens with `amr` ["pwd","otp"] and the sign-in's failures are forgotten.
 *
 * A wrong code is counted, in the write that records it (SignInFailed, reason `wrong_code`), against the challenge
 * (5 wrong codes end it) and against the account's sign-in throttle; of N simultaneous wrong codes exactly the caps
 * are counted.
 */
export class SignInMfaHandler {
  constructor(
    private readonly deps: Pick<Ports, 'users' | 'sessions' | 'secondFactors' | 'totp' | 'factorSecrets' | 'limits' | 'tokens' | 'refreshTokens' | 'clock' | 'ids'>,
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
    const { users, secondFactors, factorSecrets, limits, clock } = this.deps;
    const { mfaToken, answer: { kind, answer } } = requireAll({ mfaToken: rawText('mfatoken', command.mfaToken), answer: parseFactorAnswer(command) });
    const challengeId = factorSecrets.challengeIdOf(mfaToken);
    const found = challengeId === null ? null : await secondFactors.findChallenge(challengeId);
    const user = found && (await users.findById(found.userId));
    if (!found || !user || !challengeOpen(found, clock.now(), user.sessionEpoch)) throw new InvalidMfaToken();
    const guard = challengeLimit(found.id, this.settings, CHALLENGE_MAX_WRONG_CODES);
    if (await limits.check(guard, clock.now())) throw new InvalidMfaToken();
    await this.throttle.check(user.email.value);
    await untilCommitted(async () => {
      const challenge = await secondFactors.findChallenge(found.id);
      const factor = await secondFactors.find(user.id);
      if (!challenge || !factor?.confirmed) throw new InvalidMfaToken();
      const at = clock.now();
      const events = proveFactor(this.deps, factor, { kind, answer }, user.id, user.email.value, at);
      if (events === null) return this.wrongCode(challenge, kind, user.id, user.email.value, command.metadata);
      const outcome = await secondFactors.completeChallenge(challenge, factor, guard, at, recordEvents(events, this.deps.ids, command.metadata));
      if (outcome === 'limited') throw new InvalidMfaToken();
      return outcome === 'completed' ? undefined : CHANGED;
    });
    return this.openSession(user.id, found.epoch, command.metadata);
  }

  /** Counts a wrong answer against the challenge and the throttle, then refuses it (or the challenge, at its cap). */
  private async wrongCode(challenge: MfaChallenge, kind: 'code' | 'recoverycode', userId: string, email: string, metadata: RequestMetadata): Promise<never> {
    const { clock, ids } = this.deps;
    const failed = recordEvents([signInFailed(email, 'wrong_code', userId, clock.now())], ids, metadata);
    const counted = await this.throttle.failedAlong(email, challengeLimit(challenge.id, this.settings, CHALLENGE_MAX_WRONG_CODES), failed);
    throw counted === 'also' ? new InvalidMfaToken() : new InvalidMfaCode(kind);
  }

  /** The session of the completed sign-in (UserSignedIn, the throttle cleared, the cap kept), as SignInHandler opens one. */
  private async openSession(userId: string, epoch: number, metadata: RequestMetadata): Promise<AuthResult> {
    const { users, clock, ids } = this.deps;
    let lostACommit = false;
    const result = await untilCommitted(async () => {
      const user = await users.findById(userId);
      if (!user || user.sessionEpoch !== epoch) throw new InvalidMfaToken();
      user.recordSignIn(clock.now());
      const account = { id: user.id, email: user.email.value, sessionEpoch: user.sessionEpoch };
      const opened = openSession(this.deps, this.sessionSettings, account, metadata, ['pwd', 'otp']);
      const evicted = lostACommit ? NOTHING_EVICTED : await evictBeyondCap(this.deps, this.sessionSettings, account, metadata);
      const events = [...recordEvents(user.pullEvents(), ids, metadata), ...opened.events, ...evicted.events];
      if (!(await users.save(user, events, opened.session, evicted.ended, [this.throttle.keyOf(user.email.value)]))) {
        lostACommit = true;
        return CHANGED;
      }
      return { user: toAccountResource(user), ...(await tokensFor(this.deps, opened.session)) };
    });
    if (lostACommit) await trimToCap(this.deps, this.sessionSettings, userId, metadata);
    return result;
  }
}
