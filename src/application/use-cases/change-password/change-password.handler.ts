import { InvalidInput } from '../../../domain/domain-error.js';
import { PlainPassword } from '../../../domain/password.js';
import { requireAll } from '../../../domain/validation.js';
import { InvalidToken } from '../../errors.js';
import type { RequestMetadata } from '../../ports/event-log.port.js';
import type { Ports } from '../../ports/ports.js';
import { uncommon } from '../../policies/password-policy.js';
import { revokeSessions } from '../../policies/sessions.js';
import type { SignInThrottle } from '../../policies/sign-in-throttle.js';
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
 * Changes the password of the signed-in account; every other session ends, the caller's stays. The other sessions
 * are ended first (a failed change leaves the password as it was, never sessions alive after a change), the password
 * is stored by compare-and-swap, and the sessions are looked up once more: a sign-in that verified the old password
 * and committed in between (a sign-in changes no state, so it does not refuse this save) is ended too, and any later
 * one is refused by the version this save moved on.
 */
export class ChangePasswordHandler {
  constructor(
    private readonly deps: Pick<Ports, 'users' | 'sessions' | 'events' | 'hasher' | 'blocklist' | 'clock' | 'ids'>,
    private readonly throttle: SignInThrottle,
  ) {}

  /**
   * Throws InvalidInput (every field at once; `currentpassword` when it does not match, which counts as a failed
   * sign-in for the throttle), TooManyAttempts while the account is throttled, or InvalidToken for an unknown subject.
   */
  async execute(command: ChangePasswordCommand): Promise<AccountResource> {
    const { users, sessions, events, hasher, blocklist, clock, ids } = this.deps;
    let verified: string | null = null;
    let newHash: string | null = null;
    return untilCommitted(async () => {
      const user = await users.findById(command.principal.userId);
      if (!user) throw new InvalidToken();
      const input = requireAll({
        current: PlainPassword.parse(command.currentPassword, 'currentpassword'),
        next: uncommon(blocklist, PlainPassword.choose(command.newPassword, user.email, 'newpassword'), 'newpassword'),
      });
      await this.throttle.check(user.email.value);
      if (user.passwordHash !== verified) {
        if (!(await hasher.verify(user.passwordHash, input.current))) {
          user.recordFailedSignIn(clock.now(), 'wrong_current_password');
          await events.append(recordEvents(user.pullEvents(), ids, command.metadata));
          throw new InvalidInput([{ field: 'currentpassword', message: 'is incorrect' }]);
        }
        verified = user.passwordHash;
      }
      const endOthers = async () => {
        const others = (await sessions.findByUser(user.id)).map((session) => session.id).filter((id) => id !== command.principal.sessionId);
        await revokeSessions(this.deps, others, 'password_changed', command.metadata);
      };
      await endOthers();
      newHash ??= await hasher.hash(input.next);
      user.changePassword(newHash, clock.now());
      if (!(await users.save(user, recordEvents(user.pullEvents(), ids, command.metadata)))) return CHANGED;
      await endOthers();
      return toAccountResource(user);
    });
  }
}
