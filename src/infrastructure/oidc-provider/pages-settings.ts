import { string } from 'yup';
import type { Config, DerivedSettings } from '../config/config.js';
import { ConfigError } from '../config/config-error.js';

const COLOUR = /^#[0-9a-fA-F]{6}$/;
const colour = (name: string, fallback: string) => string().trim().matches(COLOUR, `${name} must be a colour as #rrggbb`).default(fallback);

/** The OpenID provider pages' look: their own variables (the manifest's `settings`), read together by BRANDING. */
export const PAGES_VARIABLES = {
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

/** The WCAG contrast ratio of two #rrggbb colours (1 to 21). */
export const contrastRatio = (one: string, other: string): number => {
  const luminance = (hex: string): number => {
    const [r = 0, g = 0, b = 0] = [1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(one), luminance(other)].sort((a, b) => b - a) as [number, number];
  return (light + 0.05) / (dark + 0.05);
};

/** The branding, its colours checked for contrast at start (a page people cannot read is a configuration error). */
export const BRANDING: DerivedSettings<PagesBranding> = {
  key: 'oidcPages',
  derive: (_raw, config: Config) => {
    const setting = (name: keyof typeof PAGES_VARIABLES): string | undefined => config.capabilities[name] as string | undefined;
    const branding: PagesBranding = {
      name: setting('OIDC_PAGES_NAME') ?? 'Account service',
      logoUrl: setting('OIDC_PAGES_LOGO_URL') ?? null,
      accentColor: setting('OIDC_PAGES_ACCENT_COLOR') ?? '#1f5fbf',
      backgroundColor: setting('OIDC_PAGES_BACKGROUND_COLOR') ?? '#ffffff',
      textColor: setting('OIDC_PAGES_TEXT_COLOR') ?? '#1a1a1a',
    };
    const problems = [
      ...(contrastRatio(branding.accentColor, '#ffffff') < 4.5 ? [`white text on OIDC_PAGES_ACCENT_COLOR ${branding.accentColor} reads at ${contrastRatio(branding.accentColor, '#ffffff').toFixed(2)}:1, under 4.5:1: choose a darker colour`] : []),
      ...(contrastRatio(branding.textColor, branding.backgroundColor) < 4.5 ? [`OIDC_PAGES_TEXT_COLOR ${branding.textColor} on OIDC_PAGES_BACKGROUND_COLOR ${branding.backgroundColor} reads at ${contrastRatio(branding.textColor, branding.backgroundColor).toFixed(2)}:1, under 4.5:1`] : []),
      ...(contrastRatio(branding.accentColor, branding.backgroundColor) < 3 ? [`OIDC_PAGES_ACCENT_COLOR ${branding.accentColor} on OIDC_PAGES_BACKGROUND_COLOR ${branding.backgroundColor} reads at ${contrastRatio(branding.accentColor, branding.backgroundColor).toFixed(2)}:1, under 3:1 (the focus ring and buttons must stand out)`] : []),
    ];
    if (problems.length > 0) throw new ConfigError(problems);
    return branding;
  },
};
