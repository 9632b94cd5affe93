import { inject, injectable } from 'inversify';
import { EmailAlreadyRegistered } from '../../domain/domain-error.js';
import { Email } from '../../domain/email.js';
import { PlainPassword } from '../../domain/password.js';
import { PersonName } from '../../domain/person-name.js';
import { User } from '../../domain/user.js';
import { type Parsed, invalid, requireAll } from '../../domain/validation.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import type { RequestMetadata } from '../ports/event-log.port.js';
import { ID_GENERATOR, type IdGenerator } from '../ports/id-generator.port.js';
import { PASSWORD_BLOCKLIST, type PasswordBlocklist } from '../ports/password-blocklist.port.js';
import { PASSWORD_HASHER, type PasswordHasher } from '../ports/password-hasher.port.js';
import { TOKEN_ISSUER, type TokenIssuer } from '../ports/token-issuer.port.js';
import { USER_REPOSITORY, type UserRepository } from '../ports/user-repository.port.js';
import { type AuthResult, recordEvents, toUserView } from './auth-result.js';

export interface SignUpCommand {
  readonly name: string;
  readonly lastname: string;
  readonly email: string;
  readonly password: string;
  readonly metadata: RequestMetadata;
}

/** Registers a new account and signs it in. */
@injectable()
export class SignUpHandler {
  constructor(
    @inject(USER_REPOSITORY) private readonly users: UserRepository,
    @inject(PASSWORD_HASHER) private readonly hasher: PasswordHasher,
    @inject(TOKEN_ISSUER) private readonly tokens: TokenIssuer,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @inject(PASSWORD_BLOCKLIST) private readonly blocklist: PasswordBlocklist,
  ) {}

  /** Throws InvalidInput (every offending field at once, a too common password among them) or EmailAlreadyRegistered. */
  async execute(command: SignUpCommand): Promise<AuthResult> {
    const email = Email.parse(command.email);
    const input = requireAll({
      name: PersonName.parse('name', command.name),
      lastname: PersonName.parse('lastname', command.lastname),
      email,
      password: this.uncommon(PlainPassword.choose(command.password, email.ok ? email.value : null)),
    });
    if (await this.users.findByEmail(input.email.value)) throw new EmailAlreadyRegistered();

    const user = User.register({
      id: this.ids.next(),
      name: input.name,
      lastname: input.lastname,
      email: input.email,
      passwordHash: await this.hasher.hash(input.password),
      at: this.clock.now(),
    });
    await this.users.add(user, recordEvents(user.pullEvents(), this.ids, command.metadata));
    return { user: toUserView(user), accessToken: await this.tokens.issue({ userId: user.id }) };
  }

  private uncommon(password: Parsed<PlainPassword>): Parsed<PlainPassword> {
    return password.ok && this.blocklist.isCommon(password.value) ? invalid('password', 'is too common') : password;
  }
}
