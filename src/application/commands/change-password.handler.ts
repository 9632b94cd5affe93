import { InvalidInput } from '../../domain/domain-error.js';
import { PlainPassword } from '../../domain/password.js';
import { requireAll } from '../../domain/validation.js';
import { InvalidToken } from '../errors.js';
import type { RequestMetadata } from '../ports/event-log.port.js';
import type { Ports } from '../ports/ports.js';
import { uncommon } from '../policies/password-policy.js';
import { revokeSessions } from '../policies/sessions.js';
import type { SignInThrottle } from '../policies/sign-in-throttle.js';
import type { Principal } from '../queries/authenticate.handler.js';
import { type AccountResource, recordEvents, toAccountResource } from './auth-result.js';

export interface ChangePasswordCommand {
  readonly principal: Principal;
  /** Raw values as the client sent them. */
  readonly currentPassword: unknown;
  readonly newPassword: unknown;
  readonly metadata: RequestMetadata;
}

/** Changes the password of the signed-in account; every other session ends, the caller's stays. */
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
    const user = await users.findById(command.principal.userId);
    if (!user) throw new InvalidToken();
    const input = requireAll({
      current: PlainPassword.parse(command.currentPassword, 'currentpassword'),
      next: uncommon(blocklist, PlainPassword.choose(command.newPassword, user.email, 'newpassword'), 'newpassword'),
    });
    await this.throttle.check(user.email.value);
    if (!(await hasher.verify(user.passwordHash, input.current))) {
      user.recordFailedSignIn(clock.now(), 'wrong_current_password');
      await events.append(recordEvents(user.pullEvents(), ids, command.metadata));
      throw new InvalidInput([{ field: 'currentpassword', message: 'is incorrect' }]);
    }
    const others = (await sessions.findByUser(user.id)).map((session) => session.id).filter((id) => id !== command.principal.sessionId);
    await revokeSessions(this.deps, others, 'password_changed', command.metadata);
    user.changePassword(await hasher.hash(input.next), clock.now());
    await users.save(user, recordEvents(user.pullEvents(), ids, command.metadata));
    return toAccountResource(user);
  }
}
