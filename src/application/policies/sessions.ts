import type { RequestMetadata } from '../ports/event-log.port.js';
import type { Ports } from '../ports/ports.js';
import { type RevocationReason, Session, type SessionLifetimes } from '../../domain/session.js';
import { recordEvents } from '../commands/auth-result.js';

export interface SessionSettings {
  readonly lifetimes: SessionLifetimes;
  /** How long after a rotation the previous refresh token still answers the same successor; 0 disables. */
  readonly reuseGraceSeconds: number;
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

/** Starts a session for a user who just proved who they are (sign-up, sign-in), with SessionStarted. */
export async function startSession(
  deps: TokenDeps & Pick<Ports, 'sessions' | 'clock' | 'ids'>,
  settings: SessionSettings,
  account: { readonly id: string; readonly email: string },
  metadata: RequestMetadata,
): Promise<SessionTokens> {
  const session = Session.start({
    id: deps.ids.next(),
    userId: account.id,
    email: account.email,
    at: deps.clock.now(),
    clientIp: metadata.clientIp,
    userAgent: metadata.userAgent,
    lifetimes: settings.lifetimes,
  });
  await deps.sessions.add(session, recordEvents(session.pullEvents(), deps.ids, metadata));
  return tokensFor(deps, session);
}

const MAX_ATTEMPTS = 8;

/**
 * Ends each session for `reason` (SessionRevoked each). A concurrent change of a session (a refresh) makes its
 * compare-and-swap fail: it is reloaded and revoked again, so no revocation is lost. Already ended ones are skipped.
 */
export async function revokeSessions(
  deps: Pick<Ports, 'sessions' | 'clock' | 'ids'>,
  sessionIds: readonly string[],
  reason: RevocationReason,
  metadata: RequestMetadata,
): Promise<void> {
  for (const id of sessionIds) {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const session = await deps.sessions.findById(id);
      if (!session || session.revoked) break;
      session.revoke(reason, deps.clock.now());
      if (await deps.sessions.save(session, recordEvents(session.pullEvents(), deps.ids, metadata))) break;
    }
  }
}
