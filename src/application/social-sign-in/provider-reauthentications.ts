import type { SocialSignInPorts } from './ports/social-sign-in-ports.js';
import type { Reauthentications, ReauthenticationFor } from '../ports/reauthentications.port.js';

/**
 * The provider re-authentications' codes as the core's holder proof sees them (REAUTHENTICATIONS): a code of a
 * re-authentication (ReauthenticateHandler), spent by its first attempt, proves the holder when it was made for this
 * session, this account in its current epoch and this action, is younger than OAUTH_CODE_SECONDS, and is redeemed
 * with the verifier of the app that started it.
 */
export class ProviderReauthentications implements Reauthentications {
  constructor(private readonly deps: Pick<SocialSignInPorts, 'oauthFlows' | 'providers' | 'clock'>) {}

  async redeem(handle: string, verifier: string, expected: ReauthenticationFor): Promise<'proved' | 'code' | 'verifier'> {
    const { oauthFlows, providers, clock } = this.deps;
    const code = await oauthFlows.redeem(providers.idOf(handle));
    const fits =
      code?.reauth?.sessionId === expected.sessionId && code.reauth.action === expected.action && code.userId === expected.userId && code.epoch === expected.epoch;
    if (!code || !fits || code.expiresAt.getTime() <= clock.now().getTime()) return 'code';
    return (await providers.s256(verifier)) === code.codeChallenge ? 'proved' : 'verifier';
  }
}
