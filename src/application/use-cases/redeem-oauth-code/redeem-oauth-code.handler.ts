import { InvalidInput } from '../../../domain/domain-error.js';
import { rawText, requireAll } from '../../../domain/validation.js';
import type { RequestMetadata } from '../../ports/event-log.port.js';
import type { Ports } from '../../ports/ports.js';
import { type MfaSettings, openSignInChallenge } from '../../policies/second-factor.js';
import { type SessionSettings, signInSession } from '../../policies/sessions.js';
import { type SignInOutcome, recordEvents } from '../../shared/auth-result.js';

/** The app's exchange: the one-time code the callback gave it, and the PKCE verifier of its own challenge. */
export interface RedeemOAuthCodeCommand {
  readonly code: unknown;
  readonly codeVerifier: unknown;
  readonly metadata: RequestMetadata;
}

const SPENT = 'is invalid, expired or already used';

/**
 * Exchanges a social sign-in's one-time code for the sign-in it stands for (POST /auth/oauth/token). The code is spent
 * by the first attempt, right verifier or not (of simultaneous exchanges exactly one gets it); it must be younger than
 * OAUTH_CODE_SECONDS, its account still at the session epoch it was made in, and the verifier's S256 the challenge
 * the flow started with. The session's `amr` is ["oauth"] (never `pwd`): the provider's sign-in is one factor, so an
 * account with a second factor gets the password sign-in's challenge (SecondFactorRequired), finished at
 * POST /auth/sign-in/mfa with `amr` ["oauth", "otp" or "webauthn"]. SignedInWithProvider names the identity.
 */
export class RedeemOAuthCodeHandler {
  constructor(
    private readonly deps: Pick<Ports, 'oauthFlows' | 'providers' | 'users' | 'sessionViews' | 'userViews' | 'sessions' | 'secondFactors' | 'passkeys' | 'factorSecrets' | 'tokens' | 'refreshTokens' | 'clock' | 'ids'>,
    private readonly settings: SessionSettings,
    private readonly mfa: MfaSettings,
  ) {}

  /** Throws InvalidInput on `code` (unknown, used, expired, outlived) or `code_verifier` (missing, or not the flow's). */
  async execute(command: RedeemOAuthCodeCommand): Promise<SignInOutcome> {
    const { oauthFlows, providers, users, clock } = this.deps;
    const input = requireAll({ code: rawText('code', command.code || undefined), verifier: rawText('code_verifier', command.codeVerifier || undefined) });
    const code = await oauthFlows.redeem(providers.idOf(input.code));
    const user = code && (await users.findById(code.userId));
    if (!code || !user || code.expiresAt.getTime() <= clock.now().getTime() || user.sessionEpoch !== code.epoch) throw new InvalidInput([{ field: 'code', message: SPENT }]);
    if ((await providers.s256(input.verifier)) !== code.codeChallenge) throw new InvalidInput([{ field: 'code_verifier', message: 'does not match the code_challenge' }]);
    const identity = { id: code.identityId, userId: code.userId, provider: code.provider };
    if ((await this.deps.secondFactors.find(user.id))?.confirmed) {
      user.recordSignInWithProvider(identity, clock.now());
      await users.save(user, recordEvents(user.pullEvents(), this.deps.ids, command.metadata));
      return openSignInChallenge(this.deps, this.mfa, user, 'oauth');
    }
    return signInSession(this.deps, this.settings, user.id, {
      amr: ['oauth'],
      metadata: command.metadata,
      epoch: code.epoch,
      refused: () => new InvalidInput([{ field: 'code', message: SPENT }]),
      record: (account, at) => account.recordSignInWithProvider(identity, at),
    });
  }
}
