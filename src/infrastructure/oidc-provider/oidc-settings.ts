import { boolean, number } from 'yup';
import { readableBy } from '../config/config.js';
import type { Config, DerivedSettings } from '../config/config.js';

/**
 * The APIs apps may ask tokens for (RFC 8707 resource indicators): `URI scope scope…` entries separated by commas;
 * each URI https (or http on localhost), without a fragment; its scopes what an app may ask of it. Null: malformed.
 */
export const resourcesOf = (text: string): ReadonlyMap<string, readonly string[]> | null => {
  const resources = new Map<string, readonly string[]>();
  for (const entry of text.split(',').map((part) => part.trim()).filter((part) => part !== '')) {
    const [uri = '', ...scopes] = entry.split(/\s+/);
    let url: URL;
    try {
      url = new URL(uri);
    } catch {
      return null;
    }
    const local = url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
    if ((url.protocol !== 'https:' && !local) || url.hash !== '' || uri.includes('#') || resources.has(uri)) return null;
    if (scopes.some((scope) => !/^[\x21\x23-\x5B\x5D-\x7E]{1,64}$/.test(scope) || ['openid', 'email', 'profile', 'offline_access'].includes(scope))) return null;
    resources.set(uri, scopes);
  }
  return resources;
};

/** The OpenID provider's own variables (the manifest's `settings`), read together by OIDC_SETTINGS. */
export const OIDC_VARIABLES = {
  OIDC_RESOURCES: {
    schema: readableBy(resourcesOf, 'comma-separated entries `URI scope…`, e.g. `https://mcp.example.com/mcp mcp:tools, https://api.example.com/ orders:read` (https, or http on localhost; no fragment; no OpenID scope)').optional(),
    section: 'Browser apps and proxies',
    meaning: "the APIs (and MCP servers) apps may ask tokens for with RFC 8707's `resource`, each with the scopes it knows: their access tokens are JWTs (RFC 9068) for that audience alone, checked with the JWKS; any other `resource` is `invalid_target`",
    whenUnset: 'none: access tokens are for userinfo only',
  },
  OIDC_DYNAMIC_REGISTRATION: {
    schema: boolean().default(false),
    section: 'Browser apps and proxies',
    meaning: 'lets apps register themselves (RFC 7591, `registration_endpoint`), as MCP clients do: never first-party (consent is always asked), counted per address by `OIDC_REGISTRATIONS_PER_HOUR`',
  },
  OIDC_REGISTRATIONS_PER_HOUR: {
    schema: number().integer().min(1).max(10_000).default(10),
    section: 'Sign-in throttle and rate limits',
    meaning: 'dynamic registrations one client address may make per hour (counted in the store, across instances); more get 429 with Retry-After',
  },
} as const;

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The provider's settings, as its parts take them. */
export interface OidcSettings {
  /** RFC 8707: the APIs, by URI, and the scopes each knows. */
  readonly resources: ReadonlyMap<string, readonly string[]>;
  /** RFC 7591: null when apps may not register themselves; else how many registrations an address may make an hour. */
  readonly registrationsPerHour: number | null;
}

/** The provider's settings, read once. */
export const OIDC_SETTINGS: DerivedSettings<OidcSettings> = {
  key: 'oidcProvider',
  derive: (_raw, config: Config) => {
    const setting = (name: keyof typeof OIDC_VARIABLES): unknown => config.capabilities[name];
    const resources = resourcesOf(text(setting('OIDC_RESOURCES')) ?? '') ?? new Map<string, readonly string[]>();
    return { resources, registrationsPerHour: setting('OIDC_DYNAMIC_REGISTRATION') === true ? Number(setting('OIDC_REGISTRATIONS_PER_HOUR') ?? 10) : null };
  },
};
