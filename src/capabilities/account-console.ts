import type { Capability, RawRoute } from '../infrastructure/container/capability.js';
import { CONFIG } from '../infrastructure/container/tokens.js';
import type { Token } from '../application/di-token.js';
import type { PortGetter } from '../infrastructure/container/bind-port.js';
import { linkPages } from '../interfaces/http/account-console/link-pages.js';
import { consolePages } from '../interfaces/http/account-console/console-pages.js';
import { adminPages } from '../interfaces/http/account-console/admin-pages.js';
import { pageKit } from '../interfaces/http/shared/page-kit.js';
import { SERVICE_PAGES_CLIENT } from '../application/oidc-provider/ports/service-pages-client.port.js';
import { PASSKEY_SIGN_IN } from '../application/passkeys/ports/passkey-sign-in.port.js';
import { SOCIAL_SIGN_IN } from '../application/social-sign-in/ports/social-sign-in.port.js';
import { SECOND_FACTOR_SIGN_IN } from '../application/second-factor/ports/second-factor-sign-in.port.js';
import { OIDC_CLIENTS } from '../application/oidc-provider/ports/oidc-clients.port.js';
import { PASSWORD_HELP } from '../application/account-console/ports/password-help.port.js';

/** A port of another capability, or null when the service was composed without it. */
const optional = <T>(get: PortGetter, port: Token<T>): T | null => {
  try {
    return get(port);
  } catch {
    return null;
  }
};

/** Where the consoles' pages live, at the service's own origin: the account console, the admin console. */
const CONSOLE = '/account';
const ADMIN_CONSOLE = '/console';

/**
 * The account console (issue 65), begun: the pages a mailed link opens (verify, cancel a sign-up, reset, confirm,
 * stop or revert a change of address) when PUBLIC_APP_URL is `{PUBLIC_API_URL}/account`. Each is a page of the
 * service's look (PAGES_*) whose script posts the link's token to the documented API: no route of its own besides
 * the pages.
 */
export const accountConsole: Capability = {
  name: 'account-console',
  squad: '@account-service/identity',
  folders: ['src/application/account-console', 'src/interfaces/http/account-console'],
  tables: [],
  events: {},
  settings: {},
  errors: {},
  // The provider's sign-in page links here for whoever cannot sign in.
  bind: (bindPort) => bindPort(PASSWORD_HELP, () => ({ path: `${CONSOLE}/forgot-password` })),
  useCases: () => ({}),
  commands: [],
  rawRoutes: (get): RawRoute[] => {
    const config = get(CONFIG);
    const kit = pageKit(config.pages);
    const links = linkPages(kit, CONSOLE);
    const origin = new URL(config.publicApiUrl ?? `http://localhost:${config.http.port}`).origin;
    const passkeys = optional(get, PASSKEY_SIGN_IN);
    const social = optional(get, SOCIAL_SIGN_IN);
    const consoles = consolePages(kit, CONSOLE, {
      clientId: SERVICE_PAGES_CLIENT.clientId,
      apiPath: SERVICE_PAGES_CLIENT.apiPath,
      apiScope: SERVICE_PAGES_CLIENT.apiScope,
      providers: social === null || !social.returnsTo(`${origin}${CONSOLE}`) ? [] : social.providers,
      linkReturn: `${origin}${CONSOLE}`,
      passkeys: passkeys !== null && passkeys.origins.includes(origin),
      secondFactor: optional(get, SECOND_FACTOR_SIGN_IN) !== null,
    });
    const admin = adminPages(kit, ADMIN_CONSOLE, consoles.script, { clientId: SERVICE_PAGES_CLIENT.clientId, apiPath: SERVICE_PAGES_CLIENT.apiPath, apiScope: SERVICE_PAGES_CLIENT.apiScope });
    // The consoles sign in as the provider's built-in app: without the provider, the mailed links' pages only.
    const signsIn = optional(get, OIDC_CLIENTS) !== null;
    return [
      ...(signsIn ? [...consoles.routes, ...admin.routes] : []).map((route) => ({ methods: ['GET'] as const, path: route.path, handle: route.handle })),
      ...links.pages.map((page) => ({ methods: ['GET'] as const, path: page.path, handle: page.handle })),
      { methods: ['GET'], path: links.script, handle: links.handleScript },
    ];
  },
};
