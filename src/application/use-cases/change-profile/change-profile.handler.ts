import { PersonName } from '../../../domain/person-name.js';
import { requireAll } from '../../../domain/validation.js';
import { InvalidToken } from '../../errors.js';
import type { RequestMetadata } from '../../ports/event-log.port.js';
import type { Ports } from '../../ports/ports.js';
import { type AccountResource, recordEvents, toAccountResource } from '../../shared/auth-result.js';
import { CHANGED, untilCommitted } from '../../shared/optimistic.js';

/** Raw input values as the client sent them: the handler parses each once, reporting every issue. */
export interface ChangeProfileCommand {
  /** The subject of a verified access token. */
  readonly userId: string;
  readonly name: unknown;
  readonly lastname: unknown;
  readonly metadata: RequestMetadata;
}

/** Changes the signed-in account's name and last name. */
export class ChangeProfileHandler {
  constructor(private readonly deps: Pick<Ports, 'users' | 'clock' | 'ids'>) {}

  /** Returns the account as changed; throws InvalidInput (every field at once) or InvalidToken for an unknown subject. */
  async execute(command: ChangeProfileCommand): Promise<AccountResource> {
    const { users, clock, ids } = this.deps;
    const input = requireAll({
      name: PersonName.parse('name', command.name),
      lastname: PersonName.parse('lastname', command.lastname),
    });
    return untilCommitted(async () => {
      const user = await users.findById(command.userId);
      if (!user) throw new InvalidToken();
      user.changeProfile(input.name, input.lastname, clock.now());
      return (await users.save(user, recordEvents(user.pullEvents(), ids, command.metadata))) ? toAccountResource(user) : CHANGED;
    });
  }
}
