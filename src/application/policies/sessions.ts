import type { RecordedEvent, RequestMetadata } from '../ports/event-log.port.js';
import type { Ports } from '../ports/ports.js';
import { type RevocationReason, Session, type SessionLifetimes } from '../../domain/session.js';
import { recordEvents } from '../shared/auth-result.js';
import { CHANGED, untilCommitted } from '../shared/optimistic.js';

export interface SessionSettings {
  readonly lifetimes: SessionLifetimes;
  /** How long after a rotation the previous refresh token still answers the same successor; 0 disables. */
  readonly reuseGraceSeconds: number;
  /** Wrong current passwords one session may present (password changes) before it ends (PASSWORD_CHANGE_MAX_FAILURES). */
  readonly passwordChangeMaxFailures: number;
}

/** What every answer that signs a session in carries. */
export interface SessionTokens {
  readonly accessToken: string;
  readonly refreshToken: string;
  /** The access token's lifetime in seconds. */
  readonly expiresIn: number;
}

type TokenDeps = Pick<Ports, 'tokens' | 'refreshTokens'>;

/** The access token of the session, and the refresh token of its current generation. */
export async function tokensFor(deps: TokenDeps, session: Session): Promise<SessionTokens> {
  return {
    accessToken: await deps.tokens.issue({ userId: session.userId, sessionId: session.id }),
    refreshToken: deps.refreshTokens.issue({ sessionId: session.id, generation: session.generation }),
    expiresIn: deps.tokens.lifetimeSeconds,
  };
}

/** A session opened for a user who just proved who they are, with its recorded events, not yet stored. */
export interface OpenedSession {
  readonly session: Session;
  readonly events: readonly RecordedEvent[];
}

/**
 * Opens a session (SessionStarted) for sign-up or sign-in; the caller stores it in the same transaction as the user
 * (`users.add` / `users.save` with `opened`), so an account never records a sign-in whose session was not stored.
 */
export function openSession(
  deps: Pick<Ports, 'clock' | 'ids'>,
  settings: SessionSettings,
  account: { readonly id: string; readonly email: string },
  metadata: RequestMetadata,
): OpenedSession {
  const session = Session.start({
    id: deps.ids.next(),
    userId: account.id,
    email: account.email,
    at: deps.clock.now(),
    clientIp: metadata.clientIp,
    userAgent: metadata.userAgent,
    lifetimes: settings.lifetimes,
  });
  return { session, events: recordEvents(session.pullEvents(), deps.ids, metadata) };
}

/**
 * Ends each session for `reason` (SessionRevoked each). A concurrent change of a session (a refresh) makes its
 * compare-and-swap fail: it is reloaded and revoked again, so no revocation is lost (a session that keeps changing
 * under it makes it throw ServiceUnavailable rather than give up silently). Already ended ones are skipped.
 */
export async function revokeSessions(
  deps: Pick<Ports, 'sessions' | 'clock' | 'ids'>,
  sessionIds: readonly string[],
  reason: RevocationReason,
  metadata: RequestMetadata,
): Promise<void> {
  for (const id of sessionIds) {
    await untilCommitted(async () => {
      const session = await deps.sessions.findById(id);
      if (!session || session.revoked) return;
      session.revoke(reason, deps.clock.now());
      return (await deps.sessions.save(session, recordEvents(session.pullEvents(), deps.ids, metadata))) ? undefined : CHANGED;
    });
  }
}
