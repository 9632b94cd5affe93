import { signInFailed } from '../../../domain/user.js';
import { InvalidCredentials } from '../../../domain/domain-error.js';
import { Email } from '../../../domain/email.js';
import { PlainPassword } from '../../../domain/password.js';
import { requireAll } from '../../../domain/validation.js';
import { EmailNotVerified } from '../../errors.js';
import type { RequestMetadata } from '../../ports/event-log.port.js';
import type { SignInThrottle } from '../../policies/sign-in-throttle.js';
import type { Ports } from '../../ports/ports.js';
import { NOTHING_EVICTED, type SessionSettings, evictBeyondCap, openSession, tokensFor, trimToCap } from '../../policies/sessions.js';
import { type SignInOutcome, recordEvents, toAccountResource } from '../../shared/auth-result.js';
import type { User } from '../../../domain/user.js';
import { CHANGED, untilCommitted } from '../../shared/optimistic.js';
import { newDeviceNotice } from '../../policies/new-device.js';

/** Raw input values as the client sent them (any JSON type): the handler parses each once, reporting every issue. */
export interface SignInCommand {
  readonly email: unknown;
  readonly password: unknown;
  readonly metadata: RequestMetadata;
}

/**
 * Authenticates by e-mail and password and starts a session; records the outcome in the event log either way. The
 * account (UserSignedIn, a rehash), the new session and the sessions it ends over the per-account cap (the least
 * recently used, reason `evicted`) commit together as a compare-and-swap on the account and on those sessions: when a
 * password change lands while the password is being verified, the sign-in reloads and checks the new hash, so it
 * neither writes the old hash back nor opens a session that the change did not end.
 */
export class SignInHandler {
  constructor(
    private readonly deps: Pick<Ports, 'users' | 'userViews' | 'sessions' | 'sessionViews' | 'hasher' | 'tokens' | 'refreshTokens' | 'mfa' | 'clock' | 'ids'>,
    private readonly throttle: SignInThrottle,
    private readonly settings: SessionSettings,
    private readonly requireVerifiedEmail = false,
  ) {}

  /**
   * Throws InvalidInput; TooManyAttempts (before any hashing, recording nothing) while the e-mail is throttled, and
   * after hashing when the throttle's cap was reached meanwhile (SignInThrottle: the count is exact under concurrency);
   * InvalidCredentials for an unknown e-mail, a wrong password and an account without one (made by a provider's
   * sign-in) alike; or EmailNotVerified (after the right
   * password) when verified addresses are required.
   *
   * An account with a confirmed second factor gets no session yet: a challenge (SecondFactorRequired) to answer with
   * a code at POST /auth/sign-in/mfa (SignInMfaHandler). Its failures stay counted, so wrong codes after a right
   * password add to the same throttle; a wrong password is the same InvalidCredentials as without a factor.
   *
   * Simultaneous sign-ins to an account at SESSIONS_MAX_PER_ACCOUNT pick the same least recently used session to end:
   * one wins and the others would lose again and again. After a lost commit a sign-in ends none in its commit, and
   * brings the account back to the cap in a write of its own once it has succeeded (trimToCap).
   */
  async execute(command: SignInCommand): Promise<SignInOutcome> {
    const { users, hasher, clock, ids } = this.deps;
    const { email, password } = requireAll({
      email: Email.parse(command.email),
      password: PlainPassword.parse(command.password),
    });
    await this.throttle.check(email.value);
    let verified: string | null = null;
    let rehash: { readonly of: string; readonly to: string } | null = null;
    let lostACommit = false;
    const result = await untilCommitted(async () => {
      const user = await users.findByEmail(email.value);
      if (!user) {
        await hasher.verifyDummy(password);
        await this.throttle.failed(email.value, recordEvents([signInFailed(email.value, 'unknown_email', null, clock.now())], ids, command.metadata));
        throw new InvalidCredentials();
      }
      if (user.passwordHash !== verified) {
        if (!(await this.passwordMatches(user, password))) {
          user.recordFailedSignIn(clock.now());
          await this.throttle.failed(email.value, recordEvents(user.pullEvents(), ids, command.metadata));
          throw new InvalidCredentials();
        }
        verified = user.passwordHash;
      }
      // Every attempt at the commit, the first and those after a lost one: the cap may have been reached meanwhile.
      await this.throttle.check(email.value);
      if (this.requireVerifiedEmail && !user.emailVerified) {
        await this.throttle.succeeded(email.value);
        throw new EmailNotVerified();
      }
      if (hasher.needsRehash(user.passwordHash)) {
        if (rehash?.of !== user.passwordHash) rehash = { of: user.passwordHash, to: await hasher.hash(password) };
        user.rehashPassword(rehash.to, clock.now());
      }
      if (await this.deps.mfa.requiredFor(user.id)) return this.challenge(user, command);
      user.recordSignIn(clock.now());
      const userEvents = recordEvents(user.pullEvents(), ids, command.metadata);
      const account = { id: user.id, email: user.email.value, emailVerified: user.emailVerified, sessionEpoch: user.sessionEpoch };
      const opened = openSession(this.deps, this.settings, account, command.metadata);
      const evicted = lostACommit ? NOTHING_EVICTED : await evictBeyondCap(this.deps, this.settings, account, command.metadata);
      const notice = recordEvents(await newDeviceNotice(this.deps, this.settings.newDeviceNotice, account, opened.session.id, command.metadata), ids, command.metadata);
      const cleared = [this.throttle.limitNow(email.value)];
      if (!(await users.save(user, [...userEvents, ...notice, ...opened.events, ...evicted.events], opened.session, evicted.ended, cleared))) {
        lostACommit = true;
        return CHANGED;
      }
      return { user: toAccountResource(user), ...(await tokensFor(this.deps, opened.session)) };
    });
    if (lostACommit && 'user' in result) await trimToCap(this.deps, this.settings, result.user.id, command.metadata);
    return result;
  }

  /**
   * An account made by a provider's sign-in has no password: it fails as a wrong one, after as much hashing. So does a
   * disabled account, even with the right password: its answer is a wrong password's (docs/operators.md says why).
   */
  private async passwordMatches(user: User, password: PlainPassword): Promise<boolean> {
    if (user.hasPassword) return (await this.deps.hasher.verify(user.passwordHash, password)) && !user.disabled;
    await this.deps.hasher.verifyDummy(password);
    return false;
  }

  /**
   * The password was right and the account has a second factor: a challenge, stored under the MAC of its token and
   * bound to the account's session epoch, with the rehash (if any) saved first. CHANGED when that save lost a race.
   */
  private async challenge(user: User, command: SignInCommand): Promise<SignInOutcome | typeof CHANGED> {
    const { users, ids } = this.deps;
    const rehashed = user.pullEvents();
    if (rehashed.length > 0 && !(await users.save(user, recordEvents(rehashed, ids, command.metadata)))) return CHANGED;
    return this.deps.mfa.challenge(user, 'pwd');
  }
}
