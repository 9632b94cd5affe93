import { type FieldIssue, InvalidInput } from '../../domain/domain-error.js';
import { PlainPassword } from '../../domain/password.js';
import type { User } from '../../domain/user.js';
import { rawText, requireAll } from '../../domain/validation.js';
import type { ReauthAction } from '../ports/reauthentications.port.js';
import { EmailNotVerified, InvalidToken, RecentSignInRequired } from '../errors.js';
import type { RecordedEvent, RequestMetadata } from '../ports/event-log.port.js';
import type { Ports } from '../ports/ports.js';
import { recordEvents } from '../shared/auth-result.js';
import { CHANGED, untilCommitted } from '../shared/optimistic.js';
import type { Principal } from '../shared/principal.js';
import { type MfaSettings, requireFactorAnswer, requireStepUp } from './second-factor.js';
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

/**
 * What proves the holder of a session now, besides the session: the password they type (`currentpassword`); for an
 * account without a password, a proof made for this request: a code of its authenticator app (`code`) or a passkey's
 * answer to options asked with the bearer (`passkey`).
 */
export interface HolderProof {
  readonly principal: Principal;
  readonly currentPassword: unknown;
  readonly code?: unknown;
  readonly passkey?: unknown;
  /** A provider re-authentication's one-time code for this action (POST /auth/oauth/{provider}/reauthenticate), and the app's verifier. */
  readonly oauthCode?: unknown;
  readonly codeVerifier?: unknown;
  readonly metadata: RequestMetadata;
}

export type HolderDeps = Pick<
  Ports,
  'users' | 'sessions' | 'mfa' | 'authenticators' | 'reauthentications' | 'events' | 'limits' | 'hasher' | 'clock' | 'ids'
>;

/**
 * The one guard of every way into an account that is added (a TOTP factor, a passkey; later provider identities and
 * keys): the account's address must be proven (EmailNotVerified, a 403, whatever REQUIRE_VERIFIED_EMAIL says), a
 * second factor, if any, proved recently (StepUpRequired), and the holder must type the current password now: a copied
 * access token alone adds nothing. The check is counted on the caller's session before it runs and a wrong one is
 * recorded as a password change records it (countWrongCurrentPassword), so at most PASSWORD_CHANGE_MAX_FAILURES are
 * tried per session, however many arrive at once (the right one empties the count). An account without a password
 * (made by a provider's sign-in) proves its holder by a re-authentication made for this request, never by the age of
 * its token (proveWithoutPassword). Returns the account; throws InvalidInput on `currentpassword` (missing, or `is
 * incorrect`), InvalidToken for a gone account or a session past its cap.
 */
export async function proveHolder(
  deps: HolderDeps,
  settings: { readonly sessions: CheckSettings; readonly mfa: MfaSettings },
  proof: HolderProof,
  /** What the proof is for: a provider re-authentication's code serves only this action. */
  action: ReauthAction,
  /** False for what an unproven account may do too (deleting itself): then the address is not asked to be proven. */
  addressProven = true,
): Promise<User> {
  const { users, limits, hasher, clock, ids } = deps;
  const { principal, metadata } = proof;
  const user = await users.findById(principal.userId);
  if (!user) throw new InvalidToken();
  if (addressProven && !user.emailVerified) throw new EmailNotVerified();
  const factorProof = !user.hasPassword && (given(proof.code) || (deps.authenticators.method !== null && given(proof.passkey)));
  if (!factorProof) await requireStepUp(deps, settings.mfa, principal);
  if (!user.hasPassword) return proveWithoutPassword(deps, settings.sessions, proof, action, user);
  const { password } = requireAll({ password: PlainPassword.parse(proof.currentPassword, 'currentpassword') });
  const limit = passwordCheckLimit(principal.sessionId, settings.sessions);
  if (await limits.take(limit, clock.now())) throw new InvalidToken();
  if (!(await hasher.verify(user.passwordHash, password))) {
    user.recordFailedSignIn(clock.now(), 'wrong_current_password');
    await countWrongCurrentPassword(deps, settings.sessions, principal, recordEvents(user.pullEvents(), ids, metadata), metadata);
    throw new InvalidInput([{ field: 'currentpassword', code: 'INCORRECT', message: 'is incorrect' }]);
  }
  await limits.clear(limit.key);
  return user;
}

/**
 * What a credential's second step (a passkey posted after its options) checks again: the address still proven and
 * the step-up still fresh if the account has a factor now (one turned on since the first step asks for it too).
 */
/**
 * The issue of a body that carries no proof at all, for a command that refuses its other fields first: named on
 * `currentpassword`, as proveHolder names it, so that one 400 lists every field the body lacks.
 */
export const missingProof = (proof: HolderProof): readonly FieldIssue[] =>
  [proof.currentPassword, proof.code, proof.passkey, proof.oauthCode].some(given) ? [] : [{ field: 'currentpassword', code: 'REQUIRED', message: 'is required' }];

export async function requireHolderStill(
  deps: Pick<Ports, 'mfa' | 'clock'>,
  mfa: MfaSettings,
  principal: Principal,
): Promise<void> {
  if (!principal.account.emailverified) throw new EmailNotVerified();
  await requireStepUp(deps, mfa, principal);
}

/**
 * The holder of an account without a password proves themselves for this request: a provider re-authentication made
 * for this action (`oauthcode` and `code_verifier`: proveReauthentication), a passkey's answer (`passkey`, to
 * options asked with the bearer: its challenge is single-use), or a code of the account's authenticator app (`code`:
 * its time step spent, a wrong one counted on the session like a wrong password). A copied access token has neither.
 * A code or a passkey made for this request is a second factor proved now, so it stands for the step-up too; a
 * provider's sign-in is one factor, so an account with a second factor still needs the step-up with it.
 * Throws RecentSignInRequired when none is sent, InvalidInput (the code), PasskeyRejected, InvalidMfaCode, or
 * InvalidToken past the session's cap.
 */
async function proveWithoutPassword(deps: HolderDeps, settings: CheckSettings, proof: HolderProof, action: ReauthAction, user: User): Promise<User> {
  const { principal, metadata } = proof;
  if (given(proof.oauthCode)) {
    await proveReauthentication(deps, proof, action, user);
    return user;
  }
  if (deps.authenticators.method !== null && given(proof.passkey)) {
    await deps.authenticators.prove(proof.passkey, user.id, metadata);
    return user;
  }
  if (!given(proof.code)) throw new RecentSignInRequired();
  const answer = requireFactorAnswer({ code: proof.code });
  if (answer.kind === 'authenticator') throw new RecentSignInRequired();
  const limit = passwordCheckLimit(principal.sessionId, settings);
  if (await deps.limits.take(limit, deps.clock.now())) throw new InvalidToken();
  await deps.mfa.proveCode(answer, { id: user.id, email: user.email.value }, metadata);
  await deps.limits.clear(limit.key);
  return user;
}

const SPENT = 'is invalid, expired or already used';

/**
 * A re-authentication's code (REAUTHENTICATIONS), spent by this first attempt, right verifier or not: it must be one
 * made for this session, this account in its current epoch and this action. Throws InvalidInput on `oauthcode` or
 * `code_verifier`.
 */
async function proveReauthentication(deps: HolderDeps, proof: HolderProof, action: ReauthAction, user: User): Promise<void> {
  const input = requireAll({ code: rawText('oauthcode', proof.oauthCode), verifier: rawText('code_verifier', proof.codeVerifier || undefined) });
  const expected = { userId: user.id, sessionId: proof.principal.sessionId, epoch: user.sessionEpoch, action };
  const redeemed = await deps.reauthentications.redeem(input.code, input.verifier, expected);
  if (redeemed === 'code') throw new InvalidInput([{ field: 'oauthcode', code: 'INVALID_OR_EXPIRED', message: SPENT }]);
  if (redeemed === 'verifier') throw new InvalidInput([{ field: 'code_verifier', code: 'MISMATCH', message: 'does not match the code_challenge' }]);
}

const given = (value: unknown): boolean => value !== undefined && value !== null && value !== '';
