import type { IncomingMessage, ServerResponse } from 'node:http';
import { type PageKit, escapeHtml } from '../shared/page-kit.js';
import { type ConsoleSettings, STEP_UP } from './console-pages.js';

const statusLine = (id: string): string => `<p id="${id}-status" class="form-status" role="status"></p>`;

/**
 * The admin console (`/console/`): *Search* accounts by the start of their address, and an account's page
 * (`/console/accounts/{id}`) with *Disable*, *Enable*, *Sign out everywhere*, *Remove second factor*, *Delete* (the
 * address typed to confirm), its sessions and its activity. Signed in as the account console is (the provider's
 * built-in app); each action is one operation of the admin API, which accepts an operator's access token when the
 * sign-in was made with a second factor. Anyone else is told so by the API's 403, said on the page.
 */
export function adminPages(kit: PageKit, prefix: string, script: string, settings: Pick<ConsoleSettings, 'clientId' | 'apiPath' | 'apiScope'>) {
  const render = (current: 'search' | 'account'): string =>
    kit.page(
      current === 'search' ? 'Admin console' : 'Account',
      '<nav aria-label="Admin console"><ul class="menu">' +
        `<li><a href="${prefix}/"${current === 'search' ? ' aria-current="page"' : ''}>Search</a></li><li><a href="/account/">Your account</a></li></ul></nav>` +
        '<p id="console-status" role="status">Signing you in…</p>' +
        `<div id="console" hidden data-first="search" data-client="${escapeHtml(settings.clientId)}" data-api="${escapeHtml(settings.apiPath)}" data-scope="${escapeHtml(settings.apiScope)}" data-home="${prefix}/">` +
        STEP_UP +
        `<section id="section-search" data-slug="search"${current === 'search' ? '' : ' hidden'}><h1>Accounts</h1>` +
        '<form id="search-form" role="search"><label for="search-query">Address starts with</label><input id="search-query" name="query" type="search" autocomplete="off" spellcheck="false" maxlength="254">' +
        `<button type="submit">Search</button></form>${statusLine('search')}<ul id="search-list" class="items"></ul></section>` +
        `<section id="section-account" data-slug="account"${current === 'account' ? '' : ' hidden'}><h1 id="account-title">Account</h1><ul id="account-facts" class="items"></ul>` +
        '<p><button type="button" id="account-disable">Disable</button> <button type="button" id="account-enable">Enable</button> ' +
        '<button type="button" id="account-sign-out">Sign out everywhere</button> <button type="button" id="account-mfa" class="secondary">Remove second factor</button></p>' +
        `${statusLine('account')}<h2>Sessions</h2><ul id="account-sessions" class="items"></ul><h2>Activity</h2><ol id="account-activity" class="items"></ol>` +
        '<h2>Delete</h2><form id="account-delete-form"><p>The account and everything in it are deleted at once; this cannot be undone.</p>' +
        '<label for="account-delete-confirm">Type the account\'s address to confirm</label><input id="account-delete-confirm" name="confirm" type="text" autocomplete="off" spellcheck="false" required maxlength="254">' +
        `<button type="submit">Delete</button></form>${statusLine('account-delete')}</section>` +
        '<p><button type="button" id="console-sign-out" class="secondary">Sign out of this device</button></p></div>',
      script,
      { wide: true },
    );
  const page =
    (current: 'search' | 'account') =>
    (_request: IncomingMessage, response: ServerResponse): void => {
      response.statusCode = 200;
      response.setHeader('content-type', 'text/html; charset=utf-8');
      response.setHeader('cache-control', 'no-store');
      response.setHeader('referrer-policy', 'no-referrer');
      response.setHeader('content-security-policy', kit.csp);
      response.end(render(current));
    };
  return {
    routes: [
      { path: `${prefix}/`, handle: page('search') },
      {
        path: prefix,
        handle: (_request: IncomingMessage, response: ServerResponse): void => {
          response.statusCode = 308;
          response.setHeader('location', `${prefix}/`);
          response.end();
        },
      },
      { path: `${prefix}/accounts/*`, handle: page('account') },
    ],
  };
}
