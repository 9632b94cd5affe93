import { InvalidInput } from '../../../../domain/domain-error.js';
import { rawText, requireAll } from '../../../../domain/validation.js';
import { ProviderFailed } from '../../errors.js';
import type { RequestMetadata } from '../../../ports/event-log.port.js';
import { OAUTH_CODE_SECONDS, type OAuthFlow } from '../../ports/oauth-flow-repository.port.js';
import type { SocialSignInPorts } from '../../ports/social-sign-in-ports.js';
import type { MailSettings } from '../../../policies/mail.js';
import { type FlowStarted, returnTo } from '../../policies/oauth.js';
import { type ResolvedAccount, accountForProfile } from '../../policies/provider-account.js';
import type { ProviderProfile } from '../../ports/identity-providers.port.js';

/** The provider's redirect back: which provider's callback, and its query as it came. */
export interface CompleteOAuthCommand {
  readonly provider: string;
  readonly query: Readonly<Record<string, string>>;
  readonly metadata: RequestMetadata;
}

const SPENT = 'is unknown, expired or already used';

/**
 * The provider's redirect back (GET /auth/oauth/{provider}/callback). The flow is found by `state` and spent at once
 * (one use, OAUTH_FLOW_SECONDS), and only at the provider it was started at (a state brought to another provider's
 * callback is refused: no mix-up). The provider's answer is checked (IdentityProviders.complete), the account
 * resolved by issuer and subject (accountForProfile), and the app gets a one-time code, bound to its PKCE challenge,
 * valid OAUTH_CODE_SECONDS: never a token in a URL. A link flow links nothing here: its code carries the identity,
 * linked at the exchange by the app holding the verifier (a link URL opened in someone else's browser links nothing).
 * A re-authentication's code proves its session's holder for one action (ReauthenticateHandler): signed in at the
 * provider since the flow began, with an identity of that account. A provider's refusal, an unreachable provider or an account
 * that may not be reached send the app `error=<code>` instead.
 */
export class CompleteOAuthHandler {
  constructor(
    private readonly deps: Pick<SocialSignInPorts, 'providers' | 'oauthFlows' | 'users' | 'identities' | 'sessions' | 'oneTimeTokens' | 'clock' | 'ids'>,
    private readonly verificationCap: MailSettings['verificationPerAddress'],
  ) {}

  /** Throws InvalidInput on `state` (missing, unknown, used, expired or another provider's): a 400, no redirect. */
  async execute(command: CompleteOAuthCommand): Promise<FlowStarted> {
    const { providers, oauthFlows, clock } = this.deps;
    const { state } = requireAll({ state: rawText('state', command.query['state'] || undefined) });
    const flow = await oauthFlows.take(providers.idOf(state));
    if (!flow || flow.provider !== command.provider || flow.expiresAt.getTime() <= clock.now().getTime()) throw new InvalidInput([{ field: 'state', code: 'INVALID_OR_EXPIRED', message: SPENT }]);
    const found = flow;
    let profile;
    try {
      profile = await providers.complete(found.provider, command.query, state, found.reauth ? { freshSince: found.createdAt } : {});
    } catch (error) {
      if (error instanceof ProviderFailed) return { location: returnTo(found.redirectTo, { error: error.reason }) };
      throw error;
    }
    const account = found.reauth ? await this.holderOf(found, profile) : await accountForProfile(this.deps, this.verificationCap, found, profile, command.metadata);
    if ('refused' in account) return { location: returnTo(found.redirectTo, { error: account.refused }) };
    const code = providers.newHandle();
    const at = clock.now();
    await oauthFlows.issue(
      {
        id: providers.idOf(code), userId: account.userId, identityId: account.identity.id, provider: found.provider, codeChallenge: found.codeChallenge,
        epoch: account.epoch, createdAt: at, expiresAt: new Date(at.getTime() + OAUTH_CODE_SECONDS * 1000),
        ...(found.reauth && found.linkTo ? { reauth: { sessionId: found.linkTo.sessionId, action: found.reauth.action } } : {}),
        ...(account.pending && found.linkTo
          ? { link: { sessionId: found.linkTo.sessionId, issuer: account.identity.issuer, subject: account.identity.subject }, email: account.identity.email }
          : {}),
      },
      [],
    );
    return { location: returnTo(found.redirectTo, { code }) };
  }

  /**
   * A re-authentication's account: the flow's, when the identity that came back is linked to it and the session that
   * asked is live; `access_denied` otherwise (another provider account, or the session ended).
   */
  private async holderOf(flow: OAuthFlow, profile: ProviderProfile): Promise<ResolvedAccount> {
    const { users, sessions, identities, clock } = this.deps;
    const user = flow.linkTo && (await users.findById(flow.linkTo.userId));
    const session = flow.linkTo && (await sessions.findById(flow.linkTo.sessionId));
    const identity = await identities.findBySubject(profile.issuer, profile.subject);
    if (!user || !session?.isLive(clock.now(), user.sessionEpoch) || identity?.userId !== user.id) return { refused: 'access_denied' };
    return { userId: user.id, identity, epoch: user.sessionEpoch };
  }
}
