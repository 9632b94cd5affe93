import { InvalidInput } from '../../domain/domain-error.js';
import { PlainPassword } from '../../domain/password.js';
import type { User } from '../../domain/user.js';
import { requireAll } from '../../domain/validation.js';
import { EmailNotVerified, InvalidToken, RecentSignInRequired } from '../errors.js';
import type { RecordedEvent, RequestMetadata } from '../ports/event-log.port.js';
import type { Ports } from '../ports/ports.js';
import { recordEvents } from '../shared/auth-result.js';
import { CHANGED, untilCommitted } from '../shared/optimistic.js';
import type { Principal } from '../shared/principal.js';
import { type MfaSettings, requireStepUp } from './second-factor.js';
import { type SessionSettings, passwordCheckLimit } from './sessions.js';

type CheckSettings = Pick<SessionSettings, 'passwordChangeMaxFailures' | 'lifetimes'>;

/**
 * Records a wrong current password presented on the caller's session (SignInFailed, reason wrong_current_password)
 * with that session's count of them, in one write; the count reaching PASSWORD_CHANGE_MAX_FAILURES ends the session,
 * so a stolen access token cannot keep guessing. Without a live session only the event is recorded.
 */
export async function countWrongCurrentPassword(
  deps: Pick<Ports, 'sessions' | 'events' | 'clock' | 'ids'>,
  settings: CheckSettings,
  principal: Principal,
  failed: readonly RecordedEvent[],
  metadata: RequestMetadata,
): Promise<void> {
  const { sessions, events, clock, ids } = deps;
  await untilCommitted(async () => {
    const session = await sessions.findById(principal.sessionId);
    if (!session || session.revoked) return events.append(failed);
    session.passwordCheckFailed(clock.now(), settings.passwordChangeMaxFailures);
    return (await sessions.save(session, [...failed, ...recordEvents(session.pullEvents(), ids, metadata)])) ? undefined : CHANGED;
  });
}

/** What proves the holder of a session now, besides the session: the password they type (`currentpassword`). */
export interface HolderProof {
  readonly principal: Principal;
  readonly currentPassword: unknown;
  readonly metadata: RequestMetadata;
}

/**
 * The one guard of every way into an account that is added (a TOTP factor, a passkey; later provider identities and
 * keys): the account's address must be proven (EmailNotVerified, a 403, whatever REQUIRE_VERIFIED_EMAIL says), a
 * second factor, if any, proved recently (StepUpRequired), and the holder must type the current password now: a copied
 * access token alone adds nothing. The check is counted on the caller's session before it runs and a wrong one is
 * recorded as a password change records it (countWrongCurrentPassword), so at most PASSWORD_CHANGE_MAX_FAILURES are
 * tried per session, however many arrive at once (the right one empties the count). An account without a password
 * (made by a provider's sign-in) proves a recent sign-in instead: `auth_time` within MFA_STEP_UP_SECONDS
 * (RecentSignInRequired). Returns the account; throws InvalidInput on `currentpassword` (missing, or `is incorrect`),
 * InvalidToken for a gone account or a session past its cap.
 */
export async function proveHolder(
  deps: Pick<Ports, 'users' | 'sessions' | 'secondFactors' | 'events' | 'limits' | 'hasher' | 'clock' | 'ids'>,
  settings: { readonly sessions: CheckSettings; readonly mfa: MfaSettings },
  proof: HolderProof,
  /** False for what an unproven account may do too (deleting itself): then the address is not asked to be proven. */
  addressProven = true,
): Promise<User> {
  const { users, limits, hasher, clock, ids } = deps;
  const { principal, metadata } = proof;
  const user = await users.findById(principal.userId);
  if (!user) throw new InvalidToken();
  if (addressProven && !user.emailVerified) throw new EmailNotVerified();
  await requireStepUp(deps, settings.mfa, principal);
  if (!user.hasPassword) return requireRecentSignIn(deps, settings.mfa, principal, user);
  const { password } = requireAll({ password: PlainPassword.parse(proof.currentPassword, 'currentpassword') });
  const limit = passwordCheckLimit(principal.sessionId, settings.sessions);
  if (await limits.take(limit, clock.now())) throw new InvalidToken();
  if (!(await hasher.verify(user.passwordHash, password))) {
    user.recordFailedSignIn(clock.now(), 'wrong_current_password');
    await countWrongCurrentPassword(deps, settings.sessions, principal, recordEvents(user.pullEvents(), ids, metadata), metadata);
    throw new InvalidInput([{ field: 'currentpassword', message: 'is incorrect' }]);
  }
  await limits.clear(limit.key);
  return user;
}

/**
 * What a credential's second step (a passkey posted after its options) checks again: the address still proven and
 * the step-up still fresh if the account has a factor now (one turned on since the first step asks for it too).
 */
export async function requireHolderStill(
  deps: Pick<Ports, 'secondFactors' | 'clock'>,
  mfa: MfaSettings,
  principal: Principal,
): Promise<void> {
  if (!principal.account.emailverified) throw new EmailNotVerified();
  await requireStepUp(deps, mfa, principal);
}

/** The holder of a password-less account proves themselves by a sign-in made within MFA_STEP_UP_SECONDS. */
function requireRecentSignIn(deps: Pick<Ports, 'clock'>, mfa: MfaSettings, principal: Principal, user: User): User {
  const age = principal.authTime === null ? Number.POSITIVE_INFINITY : deps.clock.now().getTime() - principal.authTime.getTime();
  if (!(age >= 0 && age <= mfa.stepUpSeconds * 1000)) throw new RecentSignInRequired(mfa.stepUpSeconds);
  return user;
}
