import type { Ports } from '../../ports/ports.js';
import type { SessionView } from '../../ports/session-read-model.port.js';
import type { Principal } from '../../shared/principal.js';

export interface SessionListEntry extends SessionView {
  /** True for the session of the token that asked. */
  readonly current: boolean;
}

/** The caller's live sessions (devices), newest first, the caller's own marked current. Writes nothing. */
export class ListSessionsHandler {
  constructor(private readonly deps: Pick<Ports, 'sessionViews' | 'clock'>) {}

  async execute(query: { readonly principal: Principal }): Promise<SessionListEntry[]> {
    const live = await this.deps.sessionViews.live(query.principal.userId, this.deps.clock.now());
    return live.map((session) => ({ ...session, current: session.id === query.principal.sessionId }));
  }
}
