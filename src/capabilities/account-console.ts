import type { Capability, RawRoute } from '../infrastructure/container/capability.js';
import { CONFIG } from '../infrastructure/container/tokens.js';
import { linkPages } from '../interfaces/http/account-console/link-pages.js';
import { pageKit } from '../interfaces/http/shared/page-kit.js';

/** Where the console's pages live, at the service's own origin. */
const CONSOLE = '/account';

/**
 * The account console (issue 65), begun: the pages a mailed link opens (verify, cancel a sign-up, reset, confirm,
 * stop or revert a change of address) when PUBLIC_APP_URL is `{PUBLIC_API_URL}/account`. Each is a page of the
 * service's look (PAGES_*) whose script posts the link's token to the documented API: no route of its own besides
 * the pages.
 */
export const accountConsole: Capability = {
  name: 'account-console',
  squad: '@account-service/identity',
  folders: ['src/interfaces/http/account-console'],
  tables: [],
  events: {},
  settings: {},
  errors: {},
  bind: () => undefined,
  useCases: () => ({}),
  commands: [],
  rawRoutes: (get): RawRoute[] => {
    const links = linkPages(pageKit(get(CONFIG).pages), CONSOLE);
    return [
      ...links.pages.map((page) => ({ methods: ['GET'] as const, path: page.path, handle: page.handle })),
      { methods: ['GET'], path: links.script, handle: links.handleScript },
    ];
  },
};
