import { inject, injectable } from 'inversify';
import { signInFailed } from '../../domain/domain-event.js';
import { InvalidCredentials } from '../../domain/domain-error.js';
import { Email } from '../../domain/email.js';
import { PlainPassword } from '../../domain/password.js';
import { requireAll } from '../../domain/validation.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { EVENT_LOG, type EventLog, type RequestMetadata } from '../ports/event-log.port.js';
import { ID_GENERATOR, type IdGenerator } from '../ports/id-generator.port.js';
import { PASSWORD_HASHER, type PasswordHasher } from '../ports/password-hasher.port.js';
import { TOKEN_ISSUER, type TokenIssuer } from '../ports/token-issuer.port.js';
import { USER_REPOSITORY, type UserRepository } from '../ports/user-repository.port.js';
import { type AuthResult, recordEvents, toUserView } from './auth-result.js';
import { SignInThrottle } from './sign-in-throttle.js';

export interface SignInCommand {
  readonly email: string;
  readonly password: string;
  readonly metadata: RequestMetadata;
}

/** Authenticates by e-mail and password; records the outcome in the event log either way. */
@injectable()
export class SignInHandler {
  constructor(
    @inject(USER_REPOSITORY) private readonly users: UserRepository,
    @inject(EVENT_LOG) private readonly events: EventLog,
    @inject(PASSWORD_HASHER) private readonly hasher: PasswordHasher,
    @inject(TOKEN_ISSUER) private readonly tokens: TokenIssuer,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @inject(SignInThrottle) private readonly throttle: SignInThrottle,
  ) {}

  /**
   * Throws InvalidInput; TooManyAttempts (before any hashing, recording nothing) while the e-mail is throttled;
   * or InvalidCredentials for an unknown e-mail and a wrong password alike.
   */
  async execute(command: SignInCommand): Promise<AuthResult> {
    const { email, password } = requireAll({
      email: Email.parse(command.email),
      password: PlainPassword.parse(command.password),
    });
    await this.throttle.check(email.value);
    const user = await this.users.findByEmail(email.value);
    if (!user) {
      await this.hasher.verifyDummy(password);
      await this.events.append(
        recordEvents([signInFailed(email.value, 'unknown_email', null, this.clock.now())], this.ids, command.metadata),
      );
      throw new InvalidCredentials();
    }
    if (!(await this.hasher.verify(user.passwordHash, password))) {
      user.recordFailedSignIn(this.clock.now());
      await this.events.append(recordEvents(user.pullEvents(), this.ids, command.metadata));
      throw new InvalidCredentials();
    }
    if (this.hasher.needsRehash(user.passwordHash)) {
      user.rehashPassword(await this.hasher.hash(password), this.clock.now());
    }
    user.recordSignIn(this.clock.now());
    await this.users.save(user, recordEvents(user.pullEvents(), this.ids, command.metadata));
    return { user: toUserView(user), accessToken: await this.tokens.issue({ userId: user.id }) };
  }
}
