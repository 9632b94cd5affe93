import { InvalidInput } from '../../../domain/domain-error.js';
import type { RequestMetadata } from '../../ports/event-log.port.js';
import type { Ports } from '../../ports/ports.js';
import { type MfaSettings, requireStepUp } from '../../policies/second-factor.js';
import { endAllSessions, revokeSession } from '../../policies/sessions.js';
import { recordEvents } from '../../shared/auth-result.js';
import { CHANGED, untilCommitted } from '../../shared/optimistic.js';
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
 * Ends sessions at once: their access tokens and refresh tokens are refused from the next request on. `others` and
 * `global` cost one write of the account however many sessions it holds (endAllSessions: the account's session epoch
 * moves on, the caller's session with it for `others`), not one per session. Both need a step-up on an account with a
 * second factor: a password-only session must not end the owner's raised sessions and keep its own.
 */
export class SignOutHandler {
  constructor(
    private readonly deps: Pick<Ports, 'mfa' | 'users' | 'sessions' | 'clock' | 'ids'>,
    private readonly mfa: MfaSettings,
  ) {}

  /** Throws InvalidInput for an unknown scope (null included), StepUpRequired (`others`, `global`). Idempotent: signing out an ended session again changes nothing. */
  async execute(command: SignOutCommand): Promise<void> {
    const scope = command.scope === undefined ? 'local' : command.scope;
    if (!isScope(scope)) throw new InvalidInput([{ field: 'scope', code: 'NOT_ONE_OF', message: `must be one of ${SIGN_OUT_SCOPES.join(', ')}` }]);
    const { userId, sessionId } = command.principal;
    const { users, sessions, clock, ids } = this.deps;
    if (scope === 'local') {
      const session = await sessions.findById(sessionId);
      if (session) await revokeSession(this.deps, session, 'sign_out', command.metadata);
      return;
    }
    await requireStepUp(this.deps, this.mfa, command.principal);
    await untilCommitted(async () => {
      const [user, caller] = await Promise.all([users.findById(userId), sessions.findById(sessionId)]);
      const at = clock.now();
      if (!user || !caller?.isLive(at, user.sessionEpoch)) return; // the caller's session ended already: nothing to do
      const changed = endAllSessions(user, 'sign_out', at, scope === 'others' ? caller : null);
      return (await users.save(user, recordEvents(user.pullEvents(), ids, command.metadata), undefined, changed)) ? undefined : CHANGED;
    });
  }
}
