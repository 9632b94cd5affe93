import { createHash } from 'node:crypto';

/** How the service's pages for people look, by settings (PAGES_*): no build step, no file to edit. */
export interface Branding {
  /** The service's name as people know it: every page's header and title. */
  readonly name: string;
  /** A logo shown beside the name: an https URL, a path on the service, or a `data:image/…` URL; null for none. */
  readonly logoUrl: string | null;
  /** The buttons' colour (#rrggbb); white text on it reads at 4.5:1 or more (checked at start). */
  readonly accentColor: string;
  /** The page's background (#rrggbb); the text on it reads at 4.5:1 or more (checked at start). */
  readonly backgroundColor: string;
  /** The text's colour (#rrggbb). */
  readonly textColor: string;
}

export const DEFAULT_BRANDING: Branding = { name: 'Account service', logoUrl: null, accentColor: '#1f5fbf', backgroundColor: '#ffffff', textColor: '#1a1a1a' };

export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char);

/** Where an image of the logo may come from, as `img-src` says it. */
const imageSourceOf = (logoUrl: string | null): string | null => {
  if (logoUrl === null) return null;
  if (logoUrl.startsWith('data:')) return 'data:';
  if (logoUrl.startsWith('/')) return "'self'";
  return new URL(logoUrl).origin;
};

/** The pages' one look, and the policy that lets nothing else in. */
export interface PageKit {
  readonly csp: string;
  /**
   * A whole page: the branding's header, then `body` in `<main>`; `script`: the path of the page's one script;
   * `wide`: a console's page (a menu, lists).
   */
  readonly page: (title: string, body: string, script?: string, options?: { readonly wide?: boolean }) => string;
}

/**
 * The pages' look from the branding: one stylesheet allowed by its hash, scripts only from the service's own origin
 * (the passkey button's), the logo from where its setting says, nothing framed, no `<base>`. No `form-action`:
 * Chromium applies it to the redirects after a form is posted, and a sign-in ends in a redirect to the app's
 * registered address (the engine checks it, exactly).
 */
export function pageKit(branding: Branding): PageKit {
  const { accentColor, backgroundColor, textColor } = branding;
  const style =
    `body{font:16px/1.5 system-ui,sans-serif;max-width:26rem;margin:2rem auto;padding:0 1rem;background:${backgroundColor};color:${textColor}}` +
    'header{display:flex;align-items:center;gap:.75rem;font-weight:600}header img{max-height:40px;max-width:160px}' +
    `label{display:block;margin-top:1rem}input{display:block;width:100%;padding:.5rem;font:inherit;box-sizing:border-box;border:1px solid ${textColor}}` +
    `button{margin-top:1.25rem;padding:.5rem 1rem;font:inherit;background:${accentColor};color:#fff;border:2px solid ${accentColor};border-radius:4px;cursor:pointer}` +
    `button.secondary,a.button{background:${backgroundColor};color:${textColor};border:2px solid ${textColor};border-radius:4px}` +
    'a.button{display:inline-block;margin-top:.75rem;padding:.5rem 1rem;text-decoration:none}ul.providers{list-style:none;padding:0;margin:1rem 0 0}' +
    `:focus-visible{outline:3px solid ${accentColor};outline-offset:2px}[role=alert]{border-left:4px solid #b00020;padding-left:.5rem}` +
    // The consoles: wider, a menu, lists of items each with its buttons.
    'body.wide{max-width:48rem}ul.menu{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.25rem 1rem}' +
    `ul.menu a{color:${textColor}}ul.menu a[aria-current=page]{font-weight:700}` +
    `ul.items,ol.items{padding-left:1.25rem}ul.items li,ol.items li{margin:.5rem 0}ul.items button{margin-top:.25rem;padding:.25rem .75rem}` +
    `.badge{border:1px solid ${textColor};border-radius:4px;padding:0 .4rem;font-size:.9em}form.inline{margin:.5rem 0}.qr svg{display:block;background:#fff}` +
    'ul.codes{font-family:monospace;columns:2}[hidden]{display:none!important}';
  const images = imageSourceOf(branding.logoUrl);
  const csp = [
    "default-src 'none'",
    `style-src 'sha256-${createHash('sha256').update(style).digest('base64')}'`,
    "script-src 'self'",
    "connect-src 'self'",
    ...(images === null ? [] : [`img-src ${images}`]),
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
  const logo = branding.logoUrl === null ? '' : `<img src="${escapeHtml(branding.logoUrl)}" alt="">`;
  const header = `<header>${logo}<span>${escapeHtml(branding.name)}</span></header>`;
  return {
    csp,
    page: (title, body, script, options) =>
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} · ${escapeHtml(branding.name)}</title><style>${style}</style>` +
      `${script === undefined ? '' : `<script src="${escapeHtml(script)}" defer></script>`}</head><body${options?.wide === true ? ' class="wide"' : ''}>${header}<main>${body}</main></body></html>`,
  };
}
