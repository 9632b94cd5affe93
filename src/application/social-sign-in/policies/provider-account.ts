import { EmailAlreadyRegistered } from '../../../domain/domain-error.js';
import { Email } from '../../../domain/email.js';
import { type IdentitySnapshot, identityLinked } from '../../../domain/social-sign-in/identity.js';
import { PersonName } from '../../../domain/person-name.js';
import { User } from '../../../domain/user.js';
import type { RequestMetadata } from '../../ports/event-log.port.js';
import type { ProviderProfile } from '../ports/identity-providers.port.js';
import type { OAuthCode, OAuthFlow } from '../ports/oauth-flow-repository.port.js';
import type { SocialSignInPorts } from '../ports/social-sign-in-ports.js';
import { recordEvents } from '../../shared/auth-result.js';
import { recordedAsDeclared } from '../events.js';
import { bindingOf } from '../../shared/one-time-token.js';
import { CHANGED, untilCommitted } from '../../shared/optimistic.js';
import { type MailSettings, mailLimit } from '../../policies/mail.js';

/** Why a provider's identity reaches no account, as the app is told (`redirect_to?error=`). */
export type AccountRefusal = 'account_exists' | 'identity_in_use' | 'email_required' | 'identity_limit' | 'access_denied';

/**
 * The account a completed flow signs in, and the identity it came by; or why none. `pending`: a link flow's new
 * identity, not stored yet: the exchange links it (completeLink), for the app that holds the flow's verifier.
 */
export type ResolvedAccount =
  | { readonly userId: string; readonly identity: IdentitySnapshot; readonly epoch: number; readonly pending?: true }
  | { readonly refused: AccountRefusal };

type Deps = Pick<SocialSignInPorts, 'users' | 'identities' | 'sessions' | 'oneTimeTokens' | 'clock' | 'ids'>;

/**
 * The account of a provider's identity, by its issuer and subject only; never by the address alone:
 * - an identity linked already reaches its account, whatever address it shows now;
 * - a link flow names it for the flow's account (the addresses may differ), unless another account holds it
 *   (`identity_in_use`, nothing moved) or the session that asked has ended since (`access_denied`): `pending`, linked
 *   only by the app's exchange with its verifier (completeLink), so a link URL opened in another browser links nothing;
 * - an address is matched by its canonical form (Email), and only if normalisation changes no more than its case and
 *   its domain's spelling (`email_required` otherwise: a provider's `\u212Aate@…` is not the mailbox `kate@…`);
 * - a new identity whose provider proved the address joins the account of that address only if that account proved
 *   it too; an account whose address nobody proved is never joined (`account_exists`: its owner proves the address
 *   by a reset, then links from a session), and neither is any account when the provider did not prove it;
 * - otherwise a new account: verified when the provider proved the address, else unverified with the sign-up's
 *   verification mail; without a password (a reset gives it one).
 * Races (a sign-up or another callback taking the address or the identity meanwhile) are decided by the store and
 * looked at again.
 */
export function accountForProfile(deps: Deps, verificationCap: MailSettings['verificationPerAddress'], flow: OAuthFlow, profile: ProviderProfile, metadata: RequestMetadata): Promise<ResolvedAccount> {
  return untilCommitted(async () => {
    const existing = await deps.identities.findBySubject(profile.issuer, profile.subject);
    if (flow.linkTo !== null) return linkTo(deps, flow.linkTo, existing, flow, profile);
    if (existing) {
      const user = await deps.users.findById(existing.userId);
      return user ? { userId: user.id, identity: existing, epoch: user.sessionEpoch } : CHANGED;
    }
    const email = Email.parseAsShown(profile.email ?? undefined);
    if (!email.ok) return { refused: 'email_required' };
    const holder = await deps.users.findByEmail(email.value.value);
    if (holder) {
      if (!(profile.emailVerified && holder.emailVerified)) return { refused: 'account_exists' };
      return link(deps, holder, identityOf(deps, holder.id, flow, profile), metadata);
    }
    return newAccount(deps, verificationCap, email.value, flow, profile, metadata);
  });
}

const identityOf = (deps: Pick<SocialSignInPorts, 'ids' | 'clock'>, userId: string, flow: OAuthFlow, profile: ProviderProfile): IdentitySnapshot => ({
  id: deps.ids.next(), userId, provider: flow.provider, issuer: profile.issuer, subject: profile.subject, email: profile.email, createdAt: deps.clock.now(),
});

async function linkTo(deps: Deps, to: NonNullable<OAuthFlow['linkTo']>, existing: IdentitySnapshot | null, flow: OAuthFlow, profile: ProviderProfile) {
  const user = await deps.users.findById(to.userId);
  const session = await deps.sessions.findById(to.sessionId);
  if (!user || !session?.isLive(deps.clock.now(), user.sessionEpoch)) return { refused: 'access_denied' as const };
  if (existing) return existing.userId === user.id ? { userId: user.id, identity: existing, epoch: user.sessionEpoch } : { refused: 'identity_in_use' as const };
  return { userId: user.id, identity: identityOf(deps, user.id, flow, profile), epoch: user.sessionEpoch, pending: true as const };
}

/**
 * Links a link code's identity at its exchange (the app proved its verifier): to the account of the code, while the
 * session that asked is live and no account holds the identity (then `identity_in_use`, or `access_denied` for an
 * ended session; nothing moved). The identity already linked to this account is `linked` again (idempotent).
 */
export async function completeLink(deps: Deps, code: OAuthCode, metadata: RequestMetadata): Promise<'linked' | AccountRefusal> {
  const pending = code.link;
  if (!pending) return 'linked';
  const user = await deps.users.findById(code.userId);
  const session = await deps.sessions.findById(pending.sessionId);
  if (!user || !session?.isLive(deps.clock.now(), user.sessionEpoch)) return 'access_denied';
  const existing = await deps.identities.findBySubject(pending.issuer, pending.subject);
  if (existing) return existing.userId === user.id ? 'linked' : 'identity_in_use';
  const identity: IdentitySnapshot = {
    id: code.identityId, userId: user.id, provider: code.provider, issuer: pending.issuer, subject: pending.subject, email: code.email ?? null, createdAt: deps.clock.now(),
  };
  const outcome = await link(deps, user, identity, metadata);
  if (outcome === CHANGED) return 'identity_in_use';
  return 'refused' in outcome ? outcome.refused : 'linked';
}

async function link(deps: Deps, user: User, identity: IdentitySnapshot, metadata: RequestMetadata): Promise<ResolvedAccount | typeof CHANGED> {
  const events = recordedAsDeclared([identityLinked(identity, user.email.value, identity.createdAt)], deps.ids, metadata);
  const outcome = await deps.identities.add(identity, events);
  if (outcome === 'full') return { refused: 'identity_limit' };
  return outcome === 'linked' ? { userId: user.id, identity, epoch: user.sessionEpoch } : CHANGED;
}

/** The names a provider shows: given and family name, else its `name` split at the last space, else the address's local part. */
function namesOf(profile: ProviderProfile, email: Email): { readonly name: PersonName; readonly lastname: PersonName } {
  const whole = profile.name?.trim() ?? '';
  const cut = whole.lastIndexOf(' ');
  const local = email.value.slice(0, email.value.indexOf('@'));
  const first = [profile.givenName, cut > 0 ? whole.slice(0, cut) : whole, local].map((value) => PersonName.parse('name', value ?? '')).find((parsed) => parsed.ok);
  const last = [profile.familyName, cut > 0 ? whole.slice(cut + 1) : null, local].map((value) => PersonName.parse('lastname', value ?? '')).find((parsed) => parsed.ok);
  return { name: first?.ok ? first.value : PersonName.fromTrusted(local), lastname: last?.ok ? last.value : PersonName.fromTrusted(local) };
}

async function newAccount(deps: Deps, verificationCap: MailSettings['verificationPerAddress'], email: Email, flow: OAuthFlow, profile: ProviderProfile, metadata: RequestMetadata) {
  const at = deps.clock.now();
  const user = User.register({ id: deps.ids.next(), ...namesOf(profile, email), email, passwordHash: '', at, emailVerified: profile.emailVerified });
  const identity = identityOf(deps, user.id, flow, profile);
  if (!profile.emailVerified) user.requestEmailVerification(bindingOf(deps.oneTimeTokens, 'verify', user), at);
  const events = [...recordEvents(user.pullEvents(), deps.ids, metadata), ...recordedAsDeclared([identityLinked(identity, email.value, at)], deps.ids, metadata)];
  const counted = profile.emailVerified ? [] : [mailLimit(verificationCap, 'verify', email.value)];
  try {
    await deps.identities.addWithAccount(user, identity, events, counted);
  } catch (error) {
    if (error instanceof EmailAlreadyRegistered) return CHANGED;
    throw error;
  }
  return { userId: user.id, identity, epoch: user.sessionEpoch };
}
