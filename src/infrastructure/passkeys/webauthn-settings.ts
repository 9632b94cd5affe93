import { string } from 'yup';
import type { Config, DerivedSettings } from '../config/config.js';
import { readableBy } from '../config/config.js';
import { ConfigError } from '../config/config-error.js';
import { originOf, webAuthnOriginsOf } from '../config/network-settings.js';

/** The passkeys' own variables (their manifest's `settings`), read together by WEBAUTHN. */
export const WEBAUTHN_VARIABLES = {
  WEBAUTHN_RP_ID: {
    schema: string().trim().matches(/^[a-z0-9.-]{1,253}$/, 'WEBAUTHN_RP_ID must be a host name (no scheme, no port)').optional(),
    section: 'Access tokens and signing keys',
    meaning: 'the WebAuthn relying party id passkeys are bound to: your site\'s host name (or a registrable suffix of it); changing it orphans every passkey',
    whenUnset: 'the host name of `PUBLIC_APP_URL`',
  },
  WEBAUTHN_RP_NAME: {
    schema: string().trim().min(1).max(64).optional(),
    section: 'Access tokens and signing keys',
    meaning: 'the name a browser shows when it creates a passkey',
    whenUnset: '`MFA_ISSUER`',
  },
  WEBAUTHN_ORIGINS: {
    schema: readableBy(webAuthnOriginsOf, 'comma-separated origins such as https://app.example.com (no path, no trailing slash, no *)').optional(),
    section: 'Access tokens and signing keys',
    meaning: 'the origins a passkey ceremony may run on (its own list, which may be narrower than `CORS_ORIGINS`): an answer made on any other page is refused',
    whenUnset: 'the origin of `PUBLIC_APP_URL`',
  },
} as const;

/** The relying party and the origins an assertion may be made on (narrower than CORS_ORIGINS if need be). */
export interface RelyingParty {
  readonly rpId: string;
  readonly rpName: string;
  readonly origins: readonly string[];
}

/**
 * The relying party and the origins of passkeys, derived by loadConfig: every origin's host must be the RP ID or one
 * of its subdomains (browsers refuse any other pairing, so a service started with one could never register a passkey).
 */
export const WEBAUTHN: DerivedSettings<RelyingParty> = {
  key: 'webauthn',
  derive: (_raw, config: Config) => {
    const setting = (name: keyof typeof WEBAUTHN_VARIABLES): string | undefined => config.capabilities[name] as string | undefined;
    const app = originOf(config.mail.publicAppUrl);
    const rpId = setting('WEBAUTHN_RP_ID') ?? app.hostname;
    const origins = webAuthnOriginsOf(setting('WEBAUTHN_ORIGINS') ?? '') ?? [app.origin];
    const outside = origins.filter((origin) => {
      const { hostname } = originOf(origin);
      return hostname !== rpId && !hostname.endsWith(`.${rpId}`);
    });
    if (outside.length > 0) {
      throw new ConfigError(`Invalid configuration: WEBAUTHN_RP_ID ${rpId} is not the host (or a parent domain of the host) of ${outside.join(', ')} (WEBAUTHN_ORIGINS)`);
    }
    return { rpId, rpName: setting('WEBAUTHN_RP_NAME') ?? config.sessions.mfaIssuer, origins };
  },
};
