import { token } from '../../di-token.js';

/** A credential as an assertion is checked against it. */
export interface StoredCredential {
  readonly id: string;
  readonly publicKey: string;
  readonly counter: number;
  readonly transports: readonly string[];
}

/** A credential a registration created, verified (attestation `none`; user verification required). */
export interface NewCredential {
  readonly id: string;
  readonly publicKey: string;
  readonly counter: number;
  readonly transports: readonly string[];
  readonly backedUp: boolean;
  readonly deviceType: 'singleDevice' | 'multiDevice';
}

/** The options a browser passes to `navigator.credentials.create` / `.get` (JSON), and the challenge they carry. */
export interface CeremonyOptions {
  readonly options: Readonly<Record<string, unknown>>;
  readonly challenge: string;
}

/** What an assertion proved: the counter the authenticator reported, and whether the credential is backed up now. */
export interface VerifiedAssertion {
  readonly counter: number;
  readonly backedUp: boolean;
}

/**
 * WebAuthn (passkeys), by the field's own library: options for the browser's ceremonies, and the verification of
 * what the browser answers, against this service's relying party (WEBAUTHN_RP_ID) and its allowed origins
 * (WEBAUTHN_ORIGINS). User verification is always required. Verification failures throw `PasskeyRejected` with the
 * reason; nothing here reads or writes storage.
 */
export interface WebAuthn {
  registrationOptions(user: { readonly id: string; readonly name: string; readonly displayName: string }, exclude: readonly StoredCredential[]): Promise<CeremonyOptions>;
  verifyRegistration(response: unknown, challenge: string): Promise<NewCredential>;
  authenticationOptions(allow: readonly StoredCredential[]): Promise<CeremonyOptions>;
  /** The challenge and credential id an answer carries (read from its `clientDataJSON` and `id`), unverified; null when it has none. */
  claimsOf(response: unknown): { readonly challenge: string; readonly credentialId: string } | null;
  /** Checks an assertion (signature, origin, RP ID, challenge, user verification); the counter rule is the domain's (Passkey.used). */
  verifyAuthentication(response: unknown, challenge: string, credential: StoredCredential): Promise<VerifiedAssertion>;
}

export const WEBAUTHN = token<WebAuthn>('WebAuthn');
