import { boolean, number, string } from 'yup';
import { readableBy } from '../config/config.js';
import type { Config, DerivedSettings } from '../config/config.js';
import { ConfigError } from '../config/config-error.js';

const COLOUR = /^#[0-9a-fA-F]{6}$/;
const colour = (name: string, fallback: string) => string().trim().matches(COLOUR, `${name} must be a colour as #rrggbb`).default(fallback);

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
  OIDC_PAGES_NAME: {
    schema: string().trim().min(1).max(64).default('Account service'),
    section: 'Browser apps and proxies',
    meaning: "the service's name on the OpenID provider's pages (sign-in, consent, device, sign-out): their header and titles",
  },
  OIDC_PAGES_LOGO_URL: {
    schema: string()
      .trim()
      .max(8192)
      .matches(/^(https:\/\/[^\s"<>]+|\/[^\s"<>]*|data:image\/(png|svg\+xml|webp|gif|jpeg);base64,[A-Za-z0-9+/=]+)$/, 'OIDC_PAGES_LOGO_URL must be an https URL, a path on the service, or a data:image/…;base64 URL')
      .optional(),
    section: 'Browser apps and proxies',
    meaning: "a logo beside the name on the pages: an `https://` URL (the pages' CSP then allows images from its origin, and browsers fetch it from there), a path on the service, or a `data:image/…;base64,` URL (no request at all)",
    whenUnset: 'no logo: the name alone',
  },
  OIDC_PAGES_ACCENT_COLOR: {
    schema: colour('OIDC_PAGES_ACCENT_COLOR', '#1f5fbf'),
    section: 'Browser apps and proxies',
    meaning: "the pages' buttons and focus ring (#rrggbb); white text on it must read at 4.5:1 or more (WCAG AA), checked at start",
  },
  OIDC_PAGES_BACKGROUND_COLOR: {
    schema: colour('OIDC_PAGES_BACKGROUND_COLOR', '#ffffff'),
    section: 'Browser apps and proxies',
    meaning: "the pages' background (#rrggbb)",
  },
  OIDC_PAGES_TEXT_COLOR: {
    schema: colour('OIDC_PAGES_TEXT_COLOR', '#1a1a1a'),
    section: 'Browser apps and proxies',
    meaning: "the pages' text (#rrggbb); on the background it must read at 4.5:1 or more (WCAG AA), checked at start",
  },
} as const;

/** The pages' look, as the pages take it. */
export interface PagesBranding {
  readonly name: string;
  readonly logoUrl: string | null;
  readonly accentColor: string;
  readonly backgroundColor: string;
  readonly textColor: string;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The WCAG contrast ratio of two #rrggbb colours (1 to 21). */
export const contrastRatio = (one: string, other: string): number => {
  const luminance = (hex: string): number => {
    const [r = 0, g = 0, b = 0] = [1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(one), luminance(other)].sort((a, b) => b - a) as [number, number];
  return (light + 0.05) / (dark + 0.05);
};

/** The provider's settings, as its parts take them. */
export interface OidcSettings {
  readonly branding: PagesBranding;
  /** RFC 8707: the APIs, by URI, and the scopes each knows. */
  readonly resources: ReadonlyMap<string, readonly string[]>;
  /** RFC 7591: null when apps may not register themselves; else how many registrations an address may make an hour. */
  readonly registrationsPerHour: number | null;
}

/** The settings, the branding's colours checked for contrast at start (a page people cannot read is a configuration error). */
export const OIDC_SETTINGS: DerivedSettings<OidcSettings> = {
  key: 'oidcProvider',
  derive: (_raw, config: Config) => {
    const setting = (name: keyof typeof OIDC_VARIABLES): unknown => config.capabilities[name];
    const branding: PagesBranding = {
      name: text(setting('OIDC_PAGES_NAME')) ?? 'Account service',
      logoUrl: text(setting('OIDC_PAGES_LOGO_URL')) ?? null,
      accentColor: text(setting('OIDC_PAGES_ACCENT_COLOR')) ?? '#1f5fbf',
      backgroundColor: text(setting('OIDC_PAGES_BACKGROUND_COLOR')) ?? '#ffffff',
      textColor: text(setting('OIDC_PAGES_TEXT_COLOR')) ?? '#1a1a1a',
    };
    const problems = [
      ...(contrastRatio(branding.accentColor, '#ffffff') < 4.5 ? [`white text on OIDC_PAGES_ACCENT_COLOR ${branding.accentColor} reads at ${contrastRatio(branding.accentColor, '#ffffff').toFixed(2)}:1, under 4.5:1: choose a darker colour`] : []),
      ...(contrastRatio(branding.textColor, branding.backgroundColor) < 4.5 ? [`OIDC_PAGES_TEXT_COLOR ${branding.textColor} on OIDC_PAGES_BACKGROUND_COLOR ${branding.backgroundColor} reads at ${contrastRatio(branding.textColor, branding.backgroundColor).toFixed(2)}:1, under 4.5:1`] : []),
      ...(contrastRatio(branding.accentColor, branding.backgroundColor) < 3 ? [`OIDC_PAGES_ACCENT_COLOR ${branding.accentColor} on OIDC_PAGES_BACKGROUND_COLOR ${branding.backgroundColor} reads at ${contrastRatio(branding.accentColor, branding.backgroundColor).toFixed(2)}:1, under 3:1 (the focus ring and buttons must stand out)`] : []),
    ];
    if (problems.length > 0) throw new ConfigError(problems);
    const resources = resourcesOf(text(setting('OIDC_RESOURCES')) ?? '') ?? new Map<string, readonly string[]>();
    return { branding, resources, registrationsPerHour: setting('OIDC_DYNAMIC_REGISTRATION') === true ? Number(setting('OIDC_REGISTRATIONS_PER_HOUR') ?? 10) : null };
  },
};
