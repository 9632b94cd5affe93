import {
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { PasskeyRejected } from '../../application/errors.js';
import type { CeremonyOptions, NewCredential, StoredCredential, VerifiedAssertion, WebAuthn } from '../../application/passkeys/ports/webauthn.port.js';

export interface WebAuthnSettings {
  readonly rpId: string;
  readonly rpName: string;
  readonly origins: readonly string[];
  /** How long a ceremony may take, in ms (the options' `timeout`). */
  readonly timeoutMs: number;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** What the library's errors say, as one clear reason (its messages name the check that failed, never a secret). */
const reasonOf = (error: unknown): string => {
  const message = error instanceof Error ? error.message : String(error);
  if (/origin/i.test(message)) return 'was made on an origin this service does not accept (WEBAUTHN_ORIGINS)';
  if (/RP ID|rpID/i.test(message)) return 'was made for another relying party (WEBAUTHN_RP_ID)';
  if (/user verification|user could not be verified/i.test(message)) return 'was made without user verification, which is required';
  if (/challenge/i.test(message)) return 'answers another challenge';
  if (/type/i.test(message)) return 'is of the wrong ceremony';
  return 'could not be verified';
};

const transportsOf = (credential: StoredCredential) => ({ id: credential.id, transports: [...credential.transports] });

/** WebAuthn through @simplewebauthn/server: attestation `none`, discoverable credentials, user verification required. */
export class SimpleWebAuthn implements WebAuthn {
  constructor(private readonly settings: WebAuthnSettings) {}

  async registrationOptions(user: { readonly id: string; readonly name: string; readonly displayName: string }, exclude: readonly StoredCredential[]): Promise<CeremonyOptions> {
    const options = await generateRegistrationOptions({
      rpName: this.settings.rpName,
      rpID: this.settings.rpId,
      userName: user.name,
      userDisplayName: user.displayName,
      userID: new TextEncoder().encode(user.id),
      attestationType: 'none',
      excludeCredentials: exclude.map(transportsOf),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      timeout: this.settings.timeoutMs,
    });
    return { options: options as unknown as Record<string, unknown>, challenge: options.challenge };
  }

  async verifyRegistration(response: unknown, challenge: string): Promise<NewCredential> {
    if (!isObject(response)) throw new PasskeyRejected('must be the object the browser returned (credential.toJSON())');
    const verified = await verifyRegistrationResponse({
      response: response as unknown as RegistrationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: [...this.settings.origins],
      expectedRPID: this.settings.rpId,
      requireUserVerification: true,
    }).catch((error: unknown) => {
      throw new PasskeyRejected(reasonOf(error));
    });
    if (!verified.verified) throw new PasskeyRejected('could not be verified');
    const { credential, credentialBackedUp, credentialDeviceType } = verified.registrationInfo;
    return {
      id: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: credential.transports ?? [],
      backedUp: credentialBackedUp,
      deviceType: credentialDeviceType,
    };
  }

  async authenticationOptions(allow: readonly StoredCredential[]): Promise<CeremonyOptions> {
    const options = await generateAuthenticationOptions({
      rpID: this.settings.rpId,
      allowCredentials: allow.map(transportsOf),
      userVerification: 'required',
      timeout: this.settings.timeoutMs,
    });
    return { options: options as unknown as Record<string, unknown>, challenge: options.challenge };
  }

  claimsOf(response: unknown): { readonly challenge: string; readonly credentialId: string } | null {
    if (!isObject(response) || typeof response['id'] !== 'string' || !isObject(response['response'])) return null;
    const clientData = response['response']['clientDataJSON'];
    if (typeof clientData !== 'string' || clientData.length > 4096) return null;
    try {
      const parsed: unknown = JSON.parse(Buffer.from(clientData, 'base64url').toString('utf8'));
      return isObject(parsed) && typeof parsed['challenge'] === 'string' ? { challenge: parsed['challenge'], credentialId: response['id'] } : null;
    } catch {
      return null;
    }
  }

  async verifyAuthentication(response: unknown, challenge: string, credential: StoredCredential): Promise<VerifiedAssertion> {
    if (!isObject(response)) throw new PasskeyRejected('must be the object the browser returned (credential.toJSON())');
    const verified = await verifyAuthenticationResponse({
      response: response as unknown as AuthenticationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: [...this.settings.origins],
      expectedRPID: this.settings.rpId,
      // The counter rule is the domain's (Passkey.used), so that a regression is recorded as such: 0 lets any counter through here.
      credential: { id: credential.id, publicKey: Buffer.from(credential.publicKey, 'base64url'), counter: 0, transports: [...credential.transports] as never },
      requireUserVerification: true,
    }).catch((error: unknown) => {
      throw new PasskeyRejected(reasonOf(error));
    });
    if (!verified.verified) throw new PasskeyRejected('could not be verified');
    return { counter: verified.authenticationInfo.newCounter, backedUp: verified.authenticationInfo.credentialBackedUp };
  }
}
