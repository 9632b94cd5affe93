import { InvalidInput } from '../../../domain/domain-error.js';
import type { RequestMetadata } from '../../ports/event-log.port.js';
import type { Ports } from '../../ports/ports.js';
import { revokeSessions } from '../../policies/sessions.js';
import type { Principal } from '../../shared/principal.js';

export const SIGN_OUT_SCOPES = ['local', 'others', 'global'] as const;
export type SignOutScope = (typeof SIGN_OUT_SCOPES)[number];

export interface SignOutCommand {
  readonly principal: Principal;
  /**
   * `local` (this session, the default when absent), `others` (every other session of the account) or `global` (all
   * of them). Null is not absent: it is refused like any other value that is not a scope.
   */
  readonly scope: unknown;
  readonly metadata: RequestMetadata;
}

const isScope = (value: unknown): value is SignOutScope => SIGN_OUT_SCOPES.includes(value as SignOutScope);

/**
 * Ends sessions at once: their access tokens and refresh tokens are refused from the next request on. Ending many
 * costs one store write (see revokeSessions), not one per session.
 */
export class SignOutHandler {
  constructor(private readonly deps: Pick<Ports, 'sessions' | 'clock' | 'ids'>) {}

  /** Throws InvalidInput for an unknown scope (null included). Idempotent: signing out an ended session again changes nothing. */
  async execute(command: SignOutCommand): Promise<void> {
    const scope = command.scope === undefined ? 'local' : command.scope;
    if (!isScope(scope)) throw new InvalidInput([{ field: 'scope', message: `must be one of ${SIGN_OUT_SCOPES.join(', ')}` }]);
    const { userId, sessionId } = command.principal;
    const ending =
      scope === 'local'
        ? [await this.deps.sessions.findById(sessionId)].filter((session) => session !== null)
        : (await this.deps.sessions.findByUser(userId)).filter((session) => scope === 'global' || session.id !== sessionId);
    await revokeSessions(this.deps, ending, 'sign_out', command.metadata);
  }
}
