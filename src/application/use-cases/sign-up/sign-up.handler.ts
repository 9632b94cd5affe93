import { type MailSettings, mailLimit } from '../../policies/mail.js';
import { EmailAlreadyRegistered } from '../../../domain/domain-error.js';
import { Email } from '../../../domain/email.js';
import { PlainPassword } from '../../../domain/password.js';
import { PersonName } from '../../../domain/person-name.js';
import { User } from '../../../domain/user.js';
import { requireAll } from '../../../domain/validation.js';
import type { RequestMetadata } from '../../ports/event-log.port.js';
import { uncommon } from '../../policies/password-policy.js';
import type { Ports } from '../../ports/ports.js';
import { type SessionSettings, openSession, tokensFor } from '../../policies/sessions.js';
import { type AuthResult, recordEvents, toAccountResource } from '../../shared/auth-result.js';
import { bindingOf } from '../../shared/one-time-token.js';

/** Raw input values as the client sent them (any JSON type): the handler parses each once, reporting every issue. */
export interface SignUpCommand {
  readonly name: unknown;
  readonly lastname: unknown;
  readonly email: unknown;
  readonly password: unknown;
  readonly metadata: RequestMetadata;
}

/**
 * Registers a new account, asks for its verification mail (from the outbox), and signs it in: the account, its events
 * and its first session are committed together, so a failed commit leaves no account behind (a retry is not a 409).
 */
export class SignUpHandler {
  constructor(
    private readonly deps: Pick<Ports, 'users' | 'hasher' | 'blocklist' | 'tokens' | 'refreshTokens' | 'oneTimeTokens' | 'clock' | 'ids'>,
    private readonly settings: SessionSettings,
    /** The cap the verification mail sign-up sends counts against (MailSettings.verificationPerAddress). */
    private readonly verificationCap: MailSettings['verificationPerAddress'],
  ) {}

  /** Throws InvalidInput (every offending field at once, a too common password among them) or EmailAlreadyRegistered. */
  async execute(command: SignUpCommand): Promise<AuthResult> {
    const { users, hasher, blocklist, clock, ids } = this.deps;
    const email = Email.parse(command.email);
    const input = requireAll({
      name: PersonName.parse('name', command.name),
      lastname: PersonName.parse('lastname', command.lastname),
      email,
      password: uncommon(blocklist, PlainPassword.choose(command.password, email.ok ? email.value : null)),
    });
    if (await users.findByEmail(input.email.value)) throw new EmailAlreadyRegistered();

    const user = User.register({
      id: ids.next(),
      name: input.name,
      lastname: input.lastname,
      email: input.email,
      passwordHash: await hasher.hash(input.password),
      at: clock.now(),
    });
    user.requestEmailVerification(bindingOf(this.deps.oneTimeTokens, 'verify', user), clock.now());
    const userEvents = recordEvents(user.pullEvents(), ids, command.metadata);
    const opened = openSession(this.deps, this.settings, { id: user.id, email: user.email.value, sessionEpoch: user.sessionEpoch }, command.metadata);
    await users.add(user, [...userEvents, ...opened.events], opened.session, [mailLimit(this.verificationCap, 'verify', user.email.value)]);
    return { user: toAccountResource(user), ...(await tokensFor(this.deps, opened.session)) };
  }
}
