import { rawText, requireAll } from '../../../domain/validation.js';
import { EmailNotVerified, InvalidRefreshToken } from '../../errors.js';
import type { RequestMetadata } from '../../ports/event-log.port.js';
import type { Ports } from '../../ports/ports.js';
import { type SessionSettings, tokensFor } from '../../policies/sessions.js';
import { type AuthResult, recordEvents } from '../../shared/auth-result.js';
import { CHANGED, untilCommitted } from '../../shared/optimistic.js';

export interface RefreshCommand {
  /** The raw value the client sent (any JSON type). */
  readonly refreshToken: unknown;
  readonly metadata: RequestMetadata;
}

/**
 * Continues a session: rotates its refresh token and issues a new access token. The decision is a compare-and-swap
 * on the session's version, so simultaneous refreshes of one token give one successor: the winner rotates, the
 * others reload and, being one generation behind within the grace window, get that same successor. Of the account it
 * reads the query side's view (its public fields, its session epoch and verified flag: no hash, no aggregate), since
 * it changes nothing of the account; the session's write holds only while the account is still at the session's
 * epoch, checked in the commit (`SessionRepository.save`).
 */
export class RefreshHandler {
  constructor(
    private readonly deps: Pick<Ports, 'userViews' | 'sessions' | 'tokens' | 'refreshTokens' | 'clock' | 'ids'>,
    private readonly settings: SessionSettings,
    private readonly requireVerifiedEmail = false,
  ) {}

  /**
   * Throws InvalidInput for a missing token, InvalidRefreshToken for an unknown, expired, revoked or reused token
   * (ending the session on reuse), EmailNotVerified for an unverified account when REQUIRE_VERIFIED_EMAIL is on (then
   * nothing is written: the token stays as it was, and asking again is never taken for reuse).
   */
  async execute(command: RefreshCommand): Promise<AuthResult> {
    const { userViews, sessions, refreshTokens, clock, ids } = this.deps;
    const { token } = requireAll({ token: rawText('refreshtoken', command.refreshToken === '' ? undefined : command.refreshToken) });
    const claim = refreshTokens.read(token);
    if (!claim) throw new InvalidRefreshToken();
    return untilCommitted(async () => {
      const session = await sessions.findById(claim.sessionId);
      if (!session || session.revoked) throw new InvalidRefreshToken();
      const account = await userViews.sessionAccountOf(session.userId);
      // Ended with the account's other sessions (a newer session epoch): nothing left to record on it.
      if (!account || session.epoch !== account.sessionEpoch) throw new InvalidRefreshToken();
      // Refused before anything is decided: no rotation the client never receives, so a retry is never taken for reuse.
      if (this.requireVerifiedEmail && !account.user.emailverified) throw new EmailNotVerified();
      const now = clock.now();
      const decision = session.decide(claim.generation, now, this.settings.reuseGraceSeconds);
      if (!session.isLive(now, account.sessionEpoch)) session.revoke('expired', now);
      else if (decision === 'reuse') session.reuseDetected(now);
      else if (decision === 'rotate') session.rotate(now, this.settings.lifetimes);
      if (decision !== 'grace' || session.revoked) {
        const saved = await sessions.save(session, recordEvents(session.pullEvents(), ids, command.metadata));
        if (!saved) return CHANGED;
        if (session.revoked) throw new InvalidRefreshToken();
      }
      return { user: account.user, ...(await tokensFor(this.deps, session)) };
    });
  }
}
