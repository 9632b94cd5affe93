import type { Ports } from '../../ports/ports.js';
import type { SessionView } from '../../ports/session-read-model.port.js';
import type { Principal } from '../../shared/principal.js';

export const SESSIONS_PAGE_DEFAULT = 20;
export const SESSIONS_PAGE_MAX = 100;

export interface SessionListEntry extends SessionView {
  /** True for the session of the token that asked. */
  readonly current: boolean;
}

export interface ListSessionsQuery {
  readonly principal: Principal;
  /** From 1 to SESSIONS_PAGE_MAX (the edge checks it); defaults to SESSIONS_PAGE_DEFAULT, larger values are capped. */
  readonly limit?: number | undefined;
  /** The `nextCursor` of the previous page; absent or null for the newest sessions. */
  readonly cursor?: string | null | undefined;
}

export interface SessionList {
  readonly sessions: readonly SessionListEntry[];
  /** Opaque; pass it back for the next (older) page. Null on the last page. */
  readonly nextCursor: string | null;
}

/**
 * One page of the caller's live sessions (devices), newest first, the caller's own marked current; bounded work per
 * call whatever the account holds. Writes nothing.
 */
export class ListSessionsHandler {
  constructor(private readonly deps: Pick<Ports, 'sessionViews' | 'clock'>) {}

  /** Throws InvalidCursor for a cursor the store did not issue. */
  async execute(query: ListSessionsQuery): Promise<SessionList> {
    const limit = Math.min(Math.max(1, Math.trunc(query.limit ?? SESSIONS_PAGE_DEFAULT)), SESSIONS_PAGE_MAX);
    const page = await this.deps.sessionViews.page(query.principal.userId, this.deps.clock.now(), { limit, cursor: query.cursor ?? null });
    return { sessions: page.sessions.map((session) => ({ ...session, current: session.id === query.principal.sessionId })), nextCursor: page.nextCursor };
  }
}
