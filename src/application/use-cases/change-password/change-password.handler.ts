import { InvalidInput } from '../../../domain/domain-error.js';
import { PlainPassword } from '../../../domain/password.js';
import { requireAll } from '../../../domain/validation.js';
import { InvalidToken } from '../../errors.js';
import type { RequestMetadata } from '../../ports/event-log.port.js';
import { countWrongCurrentPassword } from '../../policies/holder.js';
import type { Ports } from '../../ports/ports.js';
import { uncommon } from '../../policies/password-policy.js';
import { type SessionSettings, endAllSessions, passwordCheckLimit } from '../../policies/sessions.js';
import { type MfaSettings, requireStepUp } from '../../policies/second-factor.js';
import type { Principal } from '../../shared/principal.js';
import { type AccountResource, recordEvents, toAccountResource } from '../../shared/auth-result.js';
import { CHANGED, untilCommitted } from '../../shared/optimistic.js';

export interface ChangePasswordCommand {
  readonly principal: Principal;
  /** Raw values as the client sent them. */
  readonly currentPassword: unknown;
  readonly newPassword: unknown;
  readonly metadata: RequestMetadata;
}

/**
 * Changes the password of the signed-in account; every other session ends, the caller's stays. The new hash and the
 * end of the other sessions are one compare-and-swap write of the account (endAllSessions: its session epoch moves
 * on, the caller's session with it): a sign-in that verified the old password and committed before it opened its
 * session in the old epoch, so it is ended too, and any later one is refused by the version this save moved on.
 *
 * Each check of the current password is counted on the caller's session before it runs (AttemptLimits, one
 * conditional write): of any number of simultaneous changes at most `passwordChangeMaxFailures` are evaluated, the
 * others are refused as the session they came on, which the last wrong one ends. The change commits only while the
 * caller's session is still live (its version is part of the compare-and-swap).
 */
export class ChangePasswordHandler {
  constructor(
    private readonly deps: Pick<Ports, 'mfa' | 'users' | 'pendingChanges' | 'sessions' | 'events' | 'limits' | 'hasher' | 'blocklist' | 'clock' | 'ids'>,
    private readonly settings: Pick<SessionSettings, 'passwordChangeMaxFailures' | 'lifetimes'>,
    private readonly mfa: MfaSettings,
  ) {}

  /**
   * Throws InvalidInput (every field at once; `currentpassword` when it does not match, which is counted on the
   * caller's session, not as a failed sign-in: at `passwordChangeMaxFailures` that session ends), or InvalidToken for
   * an unknown subject, a session no longer live, or a check past the session's cap.
   */
  async execute(command: ChangePasswordCommand): Promise<AccountResource> {
    const { users, sessions, limits, hasher, blocklist, clock, ids } = this.deps;
    let verified: string | null = null;
    let newHash: string | null = null;
    const limit = passwordCheckLimit(command.principal.sessionId, this.settings);
    await requireStepUp(this.deps, this.mfa, command.principal);
    return untilCommitted(async () => {
      const user = await users.findById(command.principal.userId);
      if (!user) throw new InvalidToken();
      const input = requireAll({
        current: PlainPassword.parse(command.currentPassword, 'currentpassword'),
        next: uncommon(blocklist, PlainPassword.choose(command.newPassword, user.email, 'newpassword'), 'newpassword'),
      });
      if (user.passwordHash !== verified) {
        if (await limits.take(limit, clock.now())) throw new InvalidToken();
        if (!(await hasher.verify(user.passwordHash, input.current))) {
          user.recordFailedSignIn(clock.now(), 'wrong_current_password');
          await countWrongCurrentPassword(this.deps, this.settings, command.principal, recordEvents(user.pullEvents(), ids, command.metadata), command.metadata);
          throw new InvalidInput([{ field: 'currentpassword', code: 'INCORRECT', message: 'is incorrect' }]);
        }
        verified = user.passwordHash;
      }
      newHash ??= await hasher.hash(input.next);
      const at = clock.now();
      const session = await sessions.findById(command.principal.sessionId);
      if (!session?.isLive(at, user.sessionEpoch)) throw new InvalidToken();
      user.changePassword(newHash, at);
      const kept = endAllSessions(user, 'password_changed', at, session);
      const ended = await this.deps.pendingChanges.endedByNewPassword(user, at, command.metadata);
      if (!(await users.save(user, [...recordEvents(user.pullEvents(), ids, command.metadata), ...ended], undefined, kept, [{ ...limit, at }]))) return CHANGED;
      return toAccountResource(user);
    });
  }

}
