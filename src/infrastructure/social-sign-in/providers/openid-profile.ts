import type { ProviderProfile } from '../../../application/social-sign-in/ports/identity-providers.port.js';
import { textOf } from './github-flow.js';

type Claims = Readonly<Record<string, unknown>>;

/** Whether claims prove their address: `email_verified` true, or the string "true" some providers send; nothing else. */
const proves = (claims: Claims): boolean => claims.email_verified === true || claims.email_verified === 'true';

/**
 * What an OpenID provider shows of its user: issuer and subject from the (validated) ID token; the address and whether
 * it is proven from one source, the ID token when it shows an address, else userinfo, so one's `email_verified` never
 * vouches for the other's address; the names from the ID token, else userinfo.
 */
export function openIdProfile(idToken: Claims & { readonly iss: string; readonly sub: string }, userInfo: Claims): ProviderProfile {
  const mail = idToken.email === undefined ? userInfo : idToken;
  const claims: Claims = { ...userInfo, ...idToken };
  return {
    issuer: idToken.iss,
    subject: idToken.sub,
    email: textOf(mail.email),
    emailVerified: textOf(mail.email) !== null && proves(mail),
    givenName: textOf(claims.given_name),
    familyName: textOf(claims.family_name),
    name: textOf(claims.name),
  };
}
