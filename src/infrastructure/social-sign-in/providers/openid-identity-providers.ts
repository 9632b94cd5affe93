import { createHmac, randomBytes } from 'node:crypto';
import * as client from 'openid-client';
import { ProviderFailed } from '../../../application/social-sign-in/errors.js';
import type { FlowOptions, IdentityProviders, ProviderProfile } from '../../../application/social-sign-in/ports/identity-providers.port.js';
import { OAUTH_FLOW_SECONDS } from '../../../application/social-sign-in/ports/oauth-flow-repository.port.js';
import type { OAuthProviderSettings, OAuthSettings } from '../oauth-settings.js';
import { clientAuthOf, completeGitHub, gitHubConfiguration } from './github-flow.js';
import { openIdProfile } from './openid-profile.js';
import { loggableOf, providerFailureOf, refusalOfError } from './provider-failures.js';

const FIRST_RETRY_MS = 1_000;
const LAST_RETRY_MS = 60_000;

/** Where a provider says what is wrong, without tokens, codes or secrets. */
export interface OAuthLog {
  warn(obj: object, msg: string): void;
}

interface Provider {
  readonly settings: OAuthProviderSettings;
  config: client.Configuration | undefined;
  discovering: Promise<client.Configuration | undefined> | undefined;
  retry: NodeJS.Timeout | undefined;
  retryMs: number;
}

/**
 * The configured identity providers over openid-client: OpenID Connect providers by discovery (in the background,
 * retried with backoff from 1 s to 60 s until it succeeds), GitHub by static metadata. Every call to a provider has
 * the deadline `settings.httpTimeoutMs`. A flow's nonce and PKCE verifier are HMAC-SHA-256 of its state under `key`,
 * so nothing secret of a flow is kept. `close()` stops the retries.
 */
export class OpenIdIdentityProviders implements IdentityProviders {
  private readonly providers = new Map<string, Provider>();
  private readonly timeoutSeconds: number;
  private closed = false;

  constructor(
    private readonly settings: OAuthSettings,
    private readonly key: Buffer,
    private readonly log: OAuthLog = { warn: () => undefined },
  ) {
    this.timeoutSeconds = settings.httpTimeoutMs / 1000;
    for (const provider of settings.providers) {
      const config = provider.kind === 'github' ? gitHubConfiguration(provider, this.timeoutSeconds, settings.allowHttp) : undefined;
      const entry: Provider = { settings: provider, config, discovering: undefined, retry: undefined, retryMs: FIRST_RETRY_MS };
      this.providers.set(provider.name, entry);
      if (config === undefined) void this.discover(entry);
    }
  }

  has(provider: string): boolean {
    return this.providers.has(provider);
  }

  newHandle(): string {
    return randomBytes(32).toString('base64url');
  }

  idOf(handle: string): string {
    return this.keyed('oauth-handle', handle);
  }

  s256(verifier: string): Promise<string> {
    return client.calculatePKCECodeChallenge(verifier);
  }

  async authorizationUrl(provider: string, state: string, options: FlowOptions = {}): Promise<string> {
    const entry = this.providerNamed(provider);
    const config = await this.configurationOf(entry);
    const parameters: Record<string, string> = {
      redirect_uri: entry.settings.redirectUri,
      scope: entry.settings.scopes,
      state,
      code_challenge: await client.calculatePKCECodeChallenge(this.keyed('oauth-pkce', state)),
      code_challenge_method: 'S256',
    };
    if (entry.settings.kind === 'oidc') parameters.nonce = this.keyed('oauth-nonce', state);
    if (entry.settings.kind === 'oidc' && options.fresh === true) Object.assign(parameters, { prompt: 'login', max_age: '0' });
    return client.buildAuthorizationUrl(config, parameters).href;
  }

  async complete(provider: string, callback: Readonly<Record<string, string>>, state: string, options: FlowOptions = {}): Promise<ProviderProfile> {
    const entry = this.providerNamed(provider);
    if (callback.error !== undefined) throw new ProviderFailed(refusalOfError(callback.error));
    const config = await this.configurationOf(entry);
    const currentUrl = new URL(`${entry.settings.redirectUri}?${new URLSearchParams(callback).toString()}`);
    const verifier = this.keyed('oauth-pkce', state);
    try {
      return entry.settings.kind === 'github'
        ? await completeGitHub(config, entry.settings, currentUrl, { state, verifier })
        : await this.completeOpenId(config, currentUrl, state, verifier, options.freshSince);
    } catch (err) {
      const failure = providerFailureOf(err);
      this.log.warn({ provider, reason: failure.reason, ...loggableOf(err) }, 'identity provider flow failed');
      throw failure;
    }
  }

  /** Stops retrying discoveries. Idempotent; a discovery in flight finishes but schedules nothing. */
  close(): void {
    this.closed = true;
    for (const entry of this.providers.values()) {
      clearTimeout(entry.retry);
      entry.retry = undefined;
    }
  }

  private async completeOpenId(config: client.Configuration, currentUrl: URL, state: string, verifier: string, freshSince?: Date): Promise<ProviderProfile> {
    const tokens = await client.authorizationCodeGrant(config, currentUrl, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: this.keyed('oauth-nonce', state),
      idTokenExpected: true,
      ...(freshSince === undefined ? {} : { maxAge: OAUTH_FLOW_SECONDS }),
    });
    const idToken = tokens.claims();
    if (idToken === undefined) throw new ProviderFailed('invalid_response');
    if (freshSince !== undefined && !signedInSince(idToken.auth_time, freshSince)) throw new ProviderFailed('login_required');
    const userInfo =
      idToken.email === undefined && config.serverMetadata().userinfo_endpoint !== undefined
        ? await client.fetchUserInfo(config, tokens.access_token, idToken.sub)
        : {};
    return openIdProfile(idToken, userInfo);
  }

  private providerNamed(name: string): Provider {
    const entry = this.providers.get(name);
    if (entry === undefined) throw new Error(`No identity provider is configured under the name ${JSON.stringify(name)}`);
    return entry;
  }

  private async configurationOf(entry: Provider): Promise<client.Configuration> {
    const config = entry.config ?? (await this.discover(entry));
    if (config === undefined) throw new ProviderFailed('temporarily_unavailable');
    return config;
  }

  private discover(entry: Provider): Promise<client.Configuration | undefined> {
    entry.discovering ??= this.discoveryOf(entry.settings).then(
      (config) => {
        entry.config = config;
        entry.discovering = undefined;
        clearTimeout(entry.retry);
        entry.retry = undefined;
        return config;
      },
      (err: unknown) => {
        entry.discovering = undefined;
        this.log.warn({ provider: entry.settings.name, retryInMs: entry.retryMs, ...loggableOf(err) }, 'identity provider discovery failed');
        this.retryLater(entry);
        return undefined;
      },
    );
    return entry.discovering;
  }

  private retryLater(entry: Provider): void {
    if (this.closed || entry.retry !== undefined) return;
    entry.retry = setTimeout(() => {
      entry.retry = undefined;
      void this.discover(entry);
    }, entry.retryMs).unref();
    entry.retryMs = Math.min(entry.retryMs * 2, LAST_RETRY_MS);
  }

  private discoveryOf(settings: OAuthProviderSettings): Promise<client.Configuration> {
    const insecure = this.settings.allowHttp && settings.issuer.startsWith('http:');
    return client.discovery(new URL(settings.issuer), settings.clientId, settings.clientSecret, clientAuthOf(settings.clientSecret), {
      timeout: this.timeoutSeconds,
      execute: insecure ? [client.allowInsecureRequests, client.enableNonRepudiationChecks] : [client.enableNonRepudiationChecks],
    });
  }

  private keyed(purpose: string, value: string): string {
    return createHmac('sha256', this.key).update(`${purpose}:${value}`).digest('base64url');
  }
}

/** Clock skew allowed between the provider and this service when a re-authentication's `auth_time` is compared. */
const SKEW_SECONDS = 30;

/** Whether an ID token's `auth_time` (seconds) is at or after `since`, less the skew. */
const signedInSince = (authTime: unknown, since: Date): boolean =>
  typeof authTime === 'number' && authTime * 1000 >= since.getTime() - SKEW_SECONDS * 1000;
