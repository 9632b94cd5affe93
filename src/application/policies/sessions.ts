import type { Limit, LimitAt } from '../ports/attempt-limits.port.js';
import type { RecordedEvent, RequestMetadata } from '../ports/event-log.port.js';
import type { Ports } from '../ports/ports.js';
import { type AuthMethod, type RevocationReason, Session, type SessionLifetimes } from '../../domain/session.js';
import type { SessionsEndedReason, User } from '../../domain/user.js';
import { type AuthResult, recordEvents, toAccountResource } from '../shared/auth-result.js';
import { CHANGED, untilCommitted } from '../shared/optimistic.js';
import { newDeviceNotice } from './new-device.js';

export interface SessionSettings {
  readonly lifetimes: SessionLifetimes;
  /** How long after a rotation the previous refresh token still answers the same successor; 0 disables. */
  readonly reuseGraceSeconds: number;
  /** Wrong current passwords one session may present (password changes) before it ends (PASSWORD_CHANGE_MAX_FAILURES). */
  readonly passwordChangeMaxFailures: number;
  /** Sessions one account keeps at most (SESSIONS_MAX_PER_ACCOUNT): a sign-in beyond it ends the least recently used. */
  readonly maxPerAccount: number;
  /** Whether a sign-in from a device the account has not used recently mails its owner (NEW_DEVICE_NOTICE); absent: no. */
  readonly newDeviceNotice?: boolean;
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
    accessToken: await deps.tokens.issue({ userId: session.userId, sessionId: session.id, amr: session.amr, authTime: session.authTime }),
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
  account: { readonly id: string; readonly email: string; readonly sessionEpoch: number },
  metadata: RequestMetadata,
  amr: readonly AuthMethod[] = ['pwd'],
): OpenedSession {
  const session = Session.start({
    id: deps.ids.next(),
    userId: account.id,
    email: account.email,
    at: deps.clock.now(),
    clientIp: metadata.clientIp,
    userAgent: metadata.userAgent,
    lifetimes: settings.lifetimes,
    epoch: account.sessionEpoch,
    amr,
  });
  return { session, events: recordEvents(session.pullEvents(), deps.ids, metadata) };
}

/**
 * The most sessions one sign-in ends over the cap. One is enough once the account is at the cap; an account above it
 * (the cap lowered, or simultaneous sign-ins) gets back to it over a few sign-ins, each commit bounded.
 */
export const MAX_EVICTIONS_PER_SIGN_IN = 50;

/** Sessions a sign-in ends in its own commit (`users.save(user, events, opened, ended)`), with their events. */
export interface EvictedSessions {
  readonly ended: readonly Session[];
  readonly events: readonly RecordedEvent[];
}

/** No session ended (what a sign-in ends after it lost a commit: see SignInHandler). */
export const NOTHING_EVICTED: EvictedSessions = { ended: [], events: [] };

/**
 * The cap: the account's least recently used sessions beyond `maxPerAccount - 1`, so that with the session a sign-in
 * opens it has `maxPerAccount`; each ended (SessionRevoked, reason `evicted`; `expired` for one already past a
 * deadline but not yet swept), not yet stored. The sign-in commits them with the account by compare-and-swap: a
 * refresh of one of them meanwhile refuses the commit, and the sign-in decides again.
 */
export async function evictBeyondCap(
  deps: Pick<Ports, 'sessions' | 'clock' | 'ids'>,
  settings: Pick<SessionSettings, 'maxPerAccount'>,
  account: { readonly id: string; readonly sessionEpoch: number },
  metadata: RequestMetadata,
  keep = settings.maxPerAccount - 1,
): Promise<EvictedSessions> {
  const ended = await deps.sessions.leastRecentlyUsed(account.id, account.sessionEpoch, keep, MAX_EVICTIONS_PER_SIGN_IN);
  const at = deps.clock.now();
  for (const session of ended) session.revoke(session.isLive(at, account.sessionEpoch) ? 'evicted' : 'expired', at);
  return { ended, events: recordEvents(ended.flatMap((session) => session.pullEvents()), deps.ids, metadata) };
}

/**
 * Brings an account back to `maxPerAccount` sessions after a sign-in committed without ending any (it lost a race for
 * the least recently used one: see SignInHandler): ends the sessions beyond the cap in one write (`saveMany`), reading
 * again after a lost write, at most 8 times. Best effort: the sign-in has succeeded already, and the account's next
 * sign-in ends whatever is left, so a failure here is swallowed.
 */
export async function trimToCap(
  deps: Pick<Ports, 'userViews' | 'sessions' | 'clock' | 'ids'>,
  settings: Pick<SessionSettings, 'maxPerAccount'>,
  userId: string,
  metadata: RequestMetadata,
): Promise<void> {
  await untilCommitted(async () => {
    // Only the account's session epoch is needed: its view, not the aggregate.
    const account = await deps.userViews.sessionAccountOf(userId);
    if (!account) return;
    const { ended, events } = await evictBeyondCap(deps, settings, { id: userId, sessionEpoch: account.sessionEpoch }, metadata, settings.maxPerAccount);
    if (ended.length === 0) return;
    return (await deps.sessions.saveMany(ended, events)) ? undefined : CHANGED;
  }).catch(() => undefined);
}

/**
 * Ends every session of `user` at once but `kept` (the caller's, for sign-out `others` and a password change; null
 * for none): the account's epoch moves on (`User.endSessions`, SessionsEnded) and `kept`, when still live, moves
 * with it (`Session.carryInto`). Returns the sessions to store by compare-and-swap in the account's own write
 * (`users.save(user, events, undefined, changed)`): ending 20,000 sessions is that one write, not 20,000. The
 * sessions of the old epoch are no longer live for any read (authentication, refresh, listing, the cap), and the
 * store's sweep removes them later, a batch at a time.
 */
export function endAllSessions(user: User, reason: SessionsEndedReason, at: Date, kept: Session | null): Session[] {
  const keep = kept !== null && kept.userId === user.id && kept.isLive(at, user.sessionEpoch) ? kept : null;
  user.endSessions(reason, at, keep?.id ?? null);
  keep?.carryInto(user.sessionEpoch);
  return keep ? [keep] : [];
}

/**
 * Ends one session for `reason` (SessionRevoked) by compare-and-swap. A concurrent change of it (a refresh) makes the
 * write fail: it is reloaded and revoked again, so no revocation is lost (a session that keeps changing under it makes
 * it throw ServiceUnavailable rather than give up silently). A session already ended, or no longer stored, is left
 * as it is: nothing is written. Every session at once is `endAllSessions`, one write of the account.
 */
export async function revokeSession(
  deps: Pick<Ports, 'sessions' | 'clock' | 'ids'>,
  session: Session,
  reason: RevocationReason,
  metadata: RequestMetadata,
): Promise<void> {
  let current: Session | null = session;
  await untilCommitted(async () => {
    if (current === null || current.revoked) return;
    current.revoke(reason, deps.clock.now());
    if (await deps.sessions.save(current, recordEvents(current.pullEvents(), deps.ids, metadata))) return;
    current = await deps.sessions.findById(session.id);
    return CHANGED;
  });
}

/**
 * The cap on checks of the current password on one session (a password change, removing the second factor): its
 * wrong ones and those in flight, for the session's lifetime.
 */
export const passwordCheckLimit = (sessionId: string, settings: Pick<SessionSettings, 'passwordChangeMaxFailures' | 'lifetimes'>): Limit => ({
  key: `password-check:${sessionId}`,
  max: settings.passwordChangeMaxFailures,
  windowSeconds: settings.lifetimes.maxSeconds,
});

/** How a sign-in that proved everything it needs opens its session (signInSession). */
export interface SignedInSession {
  readonly amr: readonly AuthMethod[];
  readonly metadata: RequestMetadata;
  /** The account's session epoch the proof was made in: a password change since refuses the sign-in (`refused`). */
  readonly epoch?: number;
  /** What refuses the sign-in when the account is gone or its epoch moved on. */
  readonly refused: () => Error;
  /**
   * Records the sign-in on the account (UserSignedIn, SignedInWithPasskey...), or returns the events that record it
   * (a capability's own, stamped as it declares them: SignedInWithProvider), appended in the same commit.
   */
  readonly record: (user: User, at: Date) => readonly RecordedEvent[] | void;
  /** Attempt limits emptied in the same commit (the sign-in throttle's failures), which refuses it at their cap. */
  readonly cleared?: () => readonly LimitAt[];
  /** Runs before each attempt at the commit (after one lost, the cap may have been reached: TooManyAttempts). */
  readonly check?: () => Promise<void>;
}

/**
 * Opens the session of a completed sign-in (a second factor answered, a passkey), as the password sign-in does: the
 * account's event, the session and the sessions it ends over the per-account cap in one compare-and-swap commit; after
 * a lost commit none is ended there, and the cap is restored after (trimToCap).
 */
export async function signInSession(
  deps: Pick<Ports, 'users' | 'userViews' | 'sessions' | 'sessionViews' | 'tokens' | 'refreshTokens' | 'clock' | 'ids'>,
  settings: SessionSettings,
  userId: string,
  how: SignedInSession,
): Promise<AuthResult> {
  const { users, clock, ids } = deps;
  let lostACommit = false;
  const result = await untilCommitted(async () => {
    await how.check?.();
    const user = await users.findById(userId);
    if (!user || user.disabled || (how.epoch !== undefined && user.sessionEpoch !== how.epoch)) throw how.refused();
    const recorded = how.record(user, clock.now()) ?? [];
    const account = { id: user.id, email: user.email.value, emailVerified: user.emailVerified, sessionEpoch: user.sessionEpoch };
    const opened = openSession(deps, settings, account, how.metadata, how.amr);
    const evicted = lostACommit ? NOTHING_EVICTED : await evictBeyondCap(deps, settings, account, how.metadata);
    const notice = await newDeviceNotice(deps, settings.newDeviceNotice, account, opened.session.id, how.metadata);
    const events = [...recordEvents([...user.pullEvents(), ...notice], ids, how.metadata), ...recorded, ...opened.events, ...evicted.events];
    if (!(await users.save(user, events, opened.session, evicted.ended, how.cleared?.() ?? []))) {
      lostACommit = true;
      return CHANGED;
    }
    return { user: toAccountResource(user), ...(await tokensFor(deps, opened.session)) };
  });
  if (lostACommit) await trimToCap(deps, settings, userId, how.metadata);
  return result;
}
