import { createHash, createHmac, randomBytes } from 'node:crypto';
import { ProviderFailed } from '../../src/application/social-sign-in/errors.js';
import type { IdentityProviders, ProviderProfile } from '../../src/application/social-sign-in/ports/identity-providers.port.js';

const base64url = (bytes: Buffer): string => bytes.toString('base64url');

/** A provider's user as the fake provider shows it (defaults: a verified address, names). */
export type FakeUser = Partial<ProviderProfile> & Pick<ProviderProfile, 'subject'>;

/**
 * Identity providers that keep state as real ones do: a flow's authorization URL names its state, `signIn` stands
 * for the user signing in at the provider and gives the callback's query, whose code `complete` accepts once and only
 * for the flow it was made for. `down` makes a provider unreachable; `deny` is the user saying no.
 */
export class FakeIdentityProviders implements IdentityProviders {
  private readonly codes = new Map<string, { readonly provider: string; readonly state: string; readonly profile: ProviderProfile }>();
  private readonly unreachable = new Set<string>();

  constructor(private readonly names: readonly string[] = ['corp', 'github']) {}

  issuerOf(provider: string): string {
    return `https://${provider}.idp.example`;
  }

  has(provider: string): boolean {
    return this.names.includes(provider);
  }

  newHandle(): string {
    return base64url(randomBytes(32));
  }

  idOf(handle: string): string {
    return base64url(createHmac('sha256', 'fake-key').update(handle).digest());
  }

  s256(verifier: string): Promise<string> {
    return Promise.resolve(base64url(createHash('sha256').update(verifier).digest()));
  }

  down(provider: string, isDown = true): void {
    if (isDown) this.unreachable.add(provider);
    else this.unreachable.delete(provider);
  }

  authorizationUrl(provider: string, state: string): Promise<string> {
    if (this.unreachable.has(provider)) return Promise.reject(new ProviderFailed('temporarily_unavailable'));
    return Promise.resolve(`${this.issuerOf(provider)}/authorize?response_type=code&state=${state}`);
  }

  /** The user signs in at the provider: the query the provider redirects back with. */
  signIn(provider: string, state: string, user: FakeUser): Record<string, string> {
    const code = this.newHandle();
    const profile: ProviderProfile = {
      issuer: this.issuerOf(provider), email: `${user.subject}@example.com`, emailVerified: true, givenName: 'Ada', familyName: 'Lovelace', name: 'Ada Lovelace', ...user,
    };
    this.codes.set(code, { provider, state, profile });
    return { code, state };
  }

  deny(state: string): Record<string, string> {
    return { error: 'access_denied', state };
  }

  complete(provider: string, callback: Readonly<Record<string, string>>, state: string): Promise<ProviderProfile> {
    if (this.unreachable.has(provider)) return Promise.reject(new ProviderFailed('temporarily_unavailable'));
    if (callback['error'] !== undefined) return Promise.reject(new ProviderFailed(callback['error'] === 'access_denied' ? 'access_denied' : 'invalid_response'));
    const issued = this.codes.get(callback['code'] ?? '');
    this.codes.delete(callback['code'] ?? '');
    if (!issued || issued.provider !== provider || issued.state !== state) return Promise.reject(new ProviderFailed('invalid_response'));
    return Promise.resolve(issued.profile);
  }
}
