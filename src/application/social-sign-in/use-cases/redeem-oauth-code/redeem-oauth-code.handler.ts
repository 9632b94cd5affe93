import { type FieldIssue, InvalidInput } from '../../../../domain/domain-error.js';
import { rawText, requireAll } from '../../../../domain/validation.js';
import { EmailNotVerified } from '../../../errors.js';
import type { RequestMetadata } from '../../../ports/event-log.port.js';
import type { SocialSignInPorts } from '../../ports/social-sign-in-ports.js';
import { type SessionSettings, signInSession } from '../../../policies/sessions.js';
import { completeLink } from '../../policies/provider-account.js';
import type { SignInOutcome } from '../../../shared/auth-result.js';
import { signedInWithProvider } from '../../../../domain/social-sign-in/identity.js';
import { recordedAsDeclared } from '../../events.js';

/** The app's exchange: the one-time code the callback gave it, and the PKCE verifier of its own challenge. */
export interface RedeemOAuthCodeCommand {
  readonly code: unknown;
  readonly codeVerifier: unknown;
  readonly metadata: RequestMetadata;
}

const SPENT = 'is invalid, expired or already used';

/** Why a link code's exchange linked nothing (its identity taken meanwhile, its session ended, the cap reached). */
const LINK_REFUSED: Record<Exclude<Awaited<ReturnType<typeof completeLink>>, 'linked'>, FieldIssue> = {
  identity_in_use: { field: 'code', code: 'ALREADY_USED', message: 'links a provider account that another account holds now; nothing was linked' },
  access_denied: { field: 'code', code: 'INVALID_OR_EXPIRED', message: 'links for a session that has ended; nothing was linked' },
  identity_limit: { field: 'code', code: 'LIMIT_REACHED', message: 'links beyond the 20 identities an account may have; nothing was linked' },
  account_exists: { field: 'code', code: 'INVALID_OR_EXPIRED', message: SPENT },
  email_required: { field: 'code', code: 'INVALID_OR_EXPIRED', message: SPENT },
};

/**
 * Exchanges a social sign-in's one-time code for the sign-in it stands for (POST /auth/oauth/token). The code is spent
 * by the first attempt, right verifier or not (of simultaneous exchanges exactly one gets it); it must be younger than
 * OAUTH_CODE_SECONDS, its account still at the session epoch it was made in, and the verifier's S256 the challenge
 * the flow started with. The session's `amr` is ["oauth"] (never `pwd`): the provider's sign-in is one factor, so an
 * account with a second factor gets the password sign-in's challenge (SecondFactorRequired), finished at
 * POST /auth/sign-in/mfa with `amr` ["oauth", "otp" or "webauthn"]. SignedInWithProvider names the identity. A link
 * flow's code links its identity here first (completeLink), only for the app holding the verifier.
 */
export class RedeemOAuthCodeHandler {
  constructor(
    private readonly deps: Pick<SocialSignInPorts, 'oauthFlows' | 'providers' | 'users' | 'identities' | 'oneTimeTokens' | 'sessionViews' | 'userViews' | 'sessions' | 'mfa' | 'tokens' | 'refreshTokens' | 'clock' | 'ids'>,
    private readonly settings: SessionSettings,
    private readonly requireVerifiedEmail = false,
  ) {}

  /**
   * Throws InvalidInput on `code` (unknown, used, expired, outlived) or `code_verifier` (missing, or not the flow's);
   * EmailNotVerified (403, as a password sign-in) for an account whose address is unproven under REQUIRE_VERIFIED_EMAIL.
   */
  async execute(command: RedeemOAuthCodeCommand): Promise<SignInOutcome> {
    const { oauthFlows, providers, users, clock } = this.deps;
    const input = requireAll({ code: rawText('code', command.code || undefined), verifier: rawText('code_verifier', command.codeVerifier || undefined) });
    const code = await oauthFlows.redeem(providers.idOf(input.code));
    const user = code && (await users.findById(code.userId));
    if (!code || !user || code.reauth || code.expiresAt.getTime() <= clock.now().getTime() || user.sessionEpoch !== code.epoch) throw new InvalidInput([{ field: 'code', code: 'INVALID_OR_EXPIRED', message: SPENT }]);
    if ((await providers.s256(input.verifier)) !== code.codeChallenge) throw new InvalidInput([{ field: 'code_verifier', code: 'MISMATCH', message: 'does not match the code_challenge' }]);
    if (this.requireVerifiedEmail && !user.emailVerified) throw new EmailNotVerified();
    const linked = await completeLink(this.deps, code, command.metadata);
    if (linked !== 'linked') throw new InvalidInput([LINK_REFUSED[linked]]);
    const identity = { id: code.identityId, userId: code.userId, provider: code.provider };
    if (await this.deps.mfa.requiredFor(user.id)) {
      await users.save(user, recordedAsDeclared([signedInWithProvider(identity, user.email.value, clock.now())], this.deps.ids, command.metadata));
      return this.deps.mfa.challenge(user, 'oauth');
    }
    return signInSession(this.deps, this.settings, user.id, {
      amr: ['oauth'],
      metadata: command.metadata,
      epoch: code.epoch,
      refused: () => new InvalidInput([{ field: 'code', code: 'INVALID_OR_EXPIRED', message: SPENT }]),
      record: (account, at) => recordedAsDeclared([signedInWithProvider(identity, account.email.value, at)], this.deps.ids, command.metadata),
    });
  }
}
