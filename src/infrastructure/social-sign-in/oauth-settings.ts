import { number, string } from 'yup';
import type { Config, DerivedSettings } from '../config/config.js';
import { ConfigError } from '../config/config-error.js';

/** One identity provider as configured: OpenID Connect by discovery, or GitHub's plain OAuth 2. */
export interface OAuthProviderSettings {
  /** Its name in paths (`/auth/oauth/{name}/...`) and in `OAUTH_<NAME>_*` (upper case, `-` as `_`). */
  readonly name: string;
  readonly kind: 'oidc' | 'github';
  /** OpenID Connect: the issuer discovery starts from. GitHub: the web origin of its authorize and token endpoints. */
  readonly issuer: string;
  /** GitHub only: the origin of its REST API (`GET /user`, `GET /user/emails`). */
  readonly apiUrl: string;
  readonly clientId: string;
  /** Absent: a public client (PKCE alone); present: `client_secret_basic`, or what discovery allows. */
  readonly clientSecret: string | undefined;
  readonly scopes: string;
  /** This service's redirect URI at the provider: `{PUBLIC_API_URL}/auth/oauth/{name}/callback`. */
  readonly redirectUri: string;
}

export interface OAuthSettings {
  readonly providers: readonly OAuthProviderSettings[];
  /** The app URLs a flow may return to, each compared exactly (scheme, host, port and path). */
  readonly redirectUrls: readonly string[];
  /** The deadline of every call to a provider (discovery, token, JWKS, userinfo). */
  readonly httpTimeoutMs: number;
  /** Whether http issuers are allowed (never in production). */
  readonly allowHttp: boolean;
}

const NAME = /^[a-z][a-z0-9-]{0,31}$/;
const GITHUB_WEB = 'https://github.com';
const GITHUB_API = 'https://api.github.com';

const variableOf = (name: string, field: string): string => `OAUTH_${name.toUpperCase().replaceAll('-', '_')}_${field}`;

/** An absolute http(s) URL without query or fragment, https unless `allowHttp`. */
const urlSetting = (raw: Record<string, string | undefined>, variable: string, allowHttp: boolean, fallback?: string): string => {
  const value = raw[variable]?.trim() || fallback;
  if (value === undefined) throw new ConfigError(`Invalid configuration: ${variable} is required`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`Invalid configuration: ${variable} must be an absolute URL`);
  }
  if (url.protocol !== 'https:' && !(allowHttp && url.protocol === 'http:')) {
    throw new ConfigError(`Invalid configuration: ${variable} must be an https URL${allowHttp ? ' (or http)' : ' in production'}`);
  }
  if (url.search !== '' || url.hash !== '') throw new ConfigError(`Invalid configuration: ${variable} must have no query or fragment`);
  return value.replace(/\/$/, '');
};

const providerOf = (raw: Record<string, string | undefined>, name: string, apiBase: string, allowHttp: boolean): OAuthProviderSettings => {
  if (!NAME.test(name)) throw new ConfigError(`Invalid configuration: OAUTH_PROVIDERS names ${JSON.stringify(name)}: a name is 1-32 of a-z, 0-9 and -, starting with a letter`);
  const kind = raw[variableOf(name, 'KIND')]?.trim() || 'oidc';
  if (kind !== 'oidc' && kind !== 'github') throw new ConfigError(`Invalid configuration: ${variableOf(name, 'KIND')} must be oidc or github`);
  const clientId = raw[variableOf(name, 'CLIENT_ID')]?.trim();
  if (!clientId) throw new ConfigError(`Invalid configuration: ${variableOf(name, 'CLIENT_ID')} is required`);
  const github = kind === 'github';
  return {
    name,
    kind,
    issuer: urlSetting(raw, variableOf(name, 'ISSUER'), allowHttp, github ? GITHUB_WEB : undefined),
    apiUrl: github ? urlSetting(raw, variableOf(name, 'API_URL'), allowHttp, GITHUB_API) : '',
    clientId,
    clientSecret: raw[variableOf(name, 'CLIENT_SECRET')]?.trim() || undefined,
    scopes: raw[variableOf(name, 'SCOPES')]?.trim() || (github ? 'read:user user:email' : 'openid email profile'),
    redirectUri: `${apiBase}/auth/oauth/${name}/callback`,
  };
};

/** Schemes that are no app's own (a mobile app returns on a private-use scheme, RFC 8252 section 7.1). */
const NOT_APP_SCHEMES = new Set(['javascript:', 'data:', 'file:', 'blob:', 'vbscript:', 'about:', 'ftp:', 'ws:', 'wss:']);

/** An app URL a flow may return to: https (http for localhost, or anywhere outside production) or an app's scheme. */
const redirectUrlOf = (value: string, production: boolean): string => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`Invalid configuration: OAUTH_REDIRECT_URLS holds ${JSON.stringify(value)}, not an absolute URL`);
  }
  const local = url.hostname === 'localhost' || url.hostname === '127.0.0.1' || url.hostname === '[::1]';
  const web = url.protocol === 'https:' || (url.protocol === 'http:' && (!production || local));
  const app = !url.protocol.startsWith('http') && !NOT_APP_SCHEMES.has(url.protocol);
  if (url.hash !== '' || url.search !== '' || !(web || app)) {
    throw new ConfigError(
      `Invalid configuration: OAUTH_REDIRECT_URLS holds ${JSON.stringify(value)}: an https URL (http only for localhost in production) or an app's own scheme (com.example.app:/done), without query or fragment`,
    );
  }
  return url.href;
};

/**
 * The identity providers from OAUTH_PROVIDERS and each one's OAUTH_<NAME>_* variables (these are per provider, so
 * they are read here rather than in the fixed schema). Throws ConfigError naming the variable.
 */
export function oauthSettingsOf(
  raw: Record<string, string | undefined>,
  env: { readonly production: boolean; readonly publicApiUrl: string; readonly publicAppUrl: string; readonly providers: string; readonly redirectUrls: string; readonly httpTimeoutMs: number },
): OAuthSettings {
  const allowHttp = !env.production;
  const names = env.providers.split(',').map((name) => name.trim()).filter((name) => name !== '');
  const duplicate = names.find((name, index) => names.indexOf(name) !== index);
  if (duplicate !== undefined) throw new ConfigError(`Invalid configuration: OAUTH_PROVIDERS names ${duplicate} twice`);
  const listed = env.redirectUrls.split(',').map((url) => url.trim()).filter((url) => url !== '');
  return {
    providers: names.map((name) => providerOf(raw, name, env.publicApiUrl, allowHttp)),
    redirectUrls: (listed.length > 0 ? listed : [env.publicAppUrl]).map((url) => redirectUrlOf(url, env.production)),
    httpTimeoutMs: env.httpTimeoutMs,
    allowHttp,
  };
}

/** Social sign-in's own variables (its manifest's `settings`); each provider's OAUTH_<NAME>_* are read by OAUTH. */
export const OAUTH_VARIABLES = {
  OAUTH_PROVIDERS: {
    schema: string().trim().optional(),
    section: 'Social sign-in',
    meaning:
      'the identity providers users may sign in with, comma-separated names (`google,github,corp`); each is configured by `OAUTH_<NAME>_ISSUER` (discovery; GitHub: optional), `OAUTH_<NAME>_CLIENT_ID`, `OAUTH_<NAME>_CLIENT_SECRET`, `OAUTH_<NAME>_SCOPES` (default `openid email profile`) and `OAUTH_<NAME>_KIND` (`oidc`, or `github` for GitHub\'s plain OAuth 2, with `OAUTH_<NAME>_API_URL`); see [Social sign-in](social-sign-in.md)',
    whenUnset: 'none: social sign-in is off (`/auth/oauth/*` answers 404)',
  },
  OAUTH_REDIRECT_URLS: {
    schema: string().trim().optional(),
    section: 'Social sign-in',
    meaning: 'the app URLs a flow may return to, comma-separated, each matched exactly in scheme, host, port and path',
    whenUnset: '`PUBLIC_APP_URL` alone',
  },
  OAUTH_HTTP_TIMEOUT_MS: {
    schema: number().integer().min(100).max(25_000).default(5_000),
    section: 'Social sign-in', meaning: 'the deadline of every call to a provider (discovery, token, keys, user info)' },
} as const;

/**
 * The providers, their redirect URIs under PUBLIC_API_URL (in production it must be set when any is configured), the
 * app URLs flows return to: derived by loadConfig from OAUTH_VARIABLES and each provider's OAUTH_<NAME>_*.
 */
export const OAUTH: DerivedSettings<OAuthSettings> = {
  key: 'oauth',
  derive: (raw, config: Config) => {
    const production = config.env === 'production';
    const providers = config.capabilities['OAUTH_PROVIDERS'] as string | undefined;
    if (production && providers !== undefined && config.publicApiUrl === undefined) {
      throw new ConfigError('Invalid configuration: PUBLIC_API_URL is required when OAUTH_PROVIDERS is set in production (the providers redirect to it)');
    }
    return oauthSettingsOf(raw, {
      production,
      publicApiUrl: config.publicApiUrl ?? `http://localhost:${config.http.port}`,
      publicAppUrl: config.mail.publicAppUrl,
      providers: providers ?? '',
      redirectUrls: (config.capabilities['OAUTH_REDIRECT_URLS'] as string | undefined) ?? '',
      httpTimeoutMs: (config.capabilities['OAUTH_HTTP_TIMEOUT_MS'] as number | undefined) ?? 5_000,
    });
  },
};
