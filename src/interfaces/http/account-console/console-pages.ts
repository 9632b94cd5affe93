import type { IncomingMessage, ServerResponse } from 'node:http';
import { type PageKit, escapeHtml } from '../shared/page-kit.js';
import { CONSOLE_SCRIPT } from './console-script.js';

/** What the console needs to sign in at the provider's pages as its built-in app, and to call the API. */
export interface ConsoleSettings {
  /** The built-in app's client id. */
  readonly clientId: string;
  /** The API's resource indicator, under the service's origin (`/auth`). */
  readonly apiPath: string;
  /** The scope the console asks of that resource. */
  readonly apiScope: string;
  /** The social providers an account may connect (none: the section says so). */
  readonly providers: readonly string[];
  /** Where a provider's flow comes back to when connecting one (one of OAUTH_REDIRECT_URLS: PUBLIC_APP_URL by default). */
  readonly linkReturn: string;
  /** Whether passkeys can be used at the console's origin. */
  readonly passkeys: boolean;
  /** Whether the second factor (authenticator app) is part of the service. */
  readonly secondFactor: boolean;
}

/** One page of the console: its path under `/account/`, its name in the menu, and its markup. */
interface Section {
  readonly slug: string;
  readonly name: string;
  readonly body: (settings: ConsoleSettings) => string;
}

const statusLine = (id: string): string => `<p id="${id}-status" class="form-status" role="status"></p>`;
const field = (id: string, name: string, label: string, attributes: string): string => `<label for="${id}">${escapeHtml(label)}</label><input id="${id}" name="${name}" ${attributes}>`;
const currentPassword = (id: string): string => field(id, 'currentpassword', 'Current password', 'type="password" autocomplete="current-password" required maxlength="256"');
const displayName = (provider: string): string => (provider === 'github' ? 'GitHub' : `${provider.charAt(0).toUpperCase()}${provider.slice(1)}`);

/**
 * The console's pages, each served whole at its own address (`/account/{slug}`) and switched in place by the script
 * once signed in; every control is a real form element with its label, and every action one operation of the API.
 */
export const SECTIONS: readonly Section[] = [
  {
    slug: 'profile',
    name: 'Profile',
    body: () =>
      '<h1>Profile</h1><p>Your e-mail address: <strong id="profile-email"></strong></p>' +
      '<form id="profile-form">' +
      field('profile-name', 'name', 'Name', 'type="text" autocomplete="given-name" required maxlength="100"') +
      field('profile-lastname', 'lastname', 'Last name', 'type="text" autocomplete="family-name" required maxlength="100"') +
      `<button type="submit">Save</button></form>${statusLine('profile')}`,
  },
  {
    slug: 'sessions',
    name: 'Sessions',
    body: () =>
      '<h1>Sessions</h1><p>The devices signed in to your account. If one is not yours, sign it out and change your password.</p>' +
      '<ul id="sessions-list" class="items"></ul>' +
      `<button type="button" id="sessions-others">Sign out everywhere else</button>${statusLine('sessions')}`,
  },
  {
    slug: 'password',
    name: 'Password',
    body: () =>
      '<h1>Password</h1><p>Changing it signs out every other device.</p><form id="password-form">' +
      currentPassword('password-current') +
      field('password-new', 'newpassword', 'New password', 'type="password" autocomplete="new-password" required minlength="8" maxlength="256"') +
      `<button type="submit">Change password</button></form>${statusLine('password')}`,
  },
  {
    slug: 'two-factor',
    name: 'Two-factor',
    body: ({ secondFactor }) =>
      '<h1>Two-factor</h1>' +
      (secondFactor
        ? '<p id="totp-state"></p>' +
          `<form id="totp-setup-form" hidden><p>Add an authenticator app: a code from it is asked after your password.</p>${currentPassword('totp-setup-password')}<button type="submit">Set up</button></form>` +
          '<div id="totp-enrol" hidden><p>Scan this QR code with your authenticator app, or type the secret into it.</p><div id="totp-qr" class="qr"></div>' +
          '<p>Secret: <code id="totp-secret"></code></p><form id="totp-confirm-form">' +
          field('totp-code', 'code', 'Code', 'type="text" inputmode="numeric" autocomplete="one-time-code" required maxlength="6" pattern="[0-9]{6}"') +
          '<button type="submit">Verify</button></form></div>' +
          '<div id="totp-codes" hidden><h2>Recovery codes</h2><p>Each signs you in once if you lose your phone. Keep them somewhere safe: they are shown this once.</p><ul id="totp-recovery" class="codes"></ul></div>' +
          `<form id="totp-off-form" hidden><p>Turning it off asks your password and a code from the app.</p>${currentPassword('totp-off-password')}` +
          field('totp-off-code', 'code', 'Code', 'type="text" inputmode="numeric" autocomplete="one-time-code" required maxlength="6"') +
          '<button type="submit" class="secondary">Turn off</button></form>' +
          statusLine('totp')
        : '<p>This service has no second factor.</p>'),
  },
  {
    slug: 'passkeys',
    name: 'Passkeys',
    body: ({ passkeys }) =>
      '<h1>Passkeys</h1>' +
      (passkeys
        ? '<p>A passkey signs you in with your device\'s screen lock, without a password.</p><ul id="passkeys-list" class="items"></ul>' +
          `<form id="passkeys-add-form">${currentPassword('passkeys-password')}` +
          field('passkeys-name', 'name', 'Passkey name', 'type="text" maxlength="64" placeholder="My laptop"') +
          `<button type="submit">Add a passkey</button></form>${statusLine('passkeys')}`
        : '<p>Passkeys are not offered at this address.</p>'),
  },
  {
    slug: 'connected',
    name: 'Connected accounts',
    body: ({ providers }) =>
      '<h1>Connected accounts</h1>' +
      (providers.length === 0
        ? '<p>This service offers no sign-in with another provider.</p>'
        : '<p>Sign in with another provider\'s account, once it is connected here.</p><ul id="connected-list" class="items"></ul>' +
          `<form id="connected-form">${currentPassword('connected-password')}` +
          providers.map((provider) => `<button type="submit" name="provider" value="${escapeHtml(provider)}">Connect ${escapeHtml(displayName(provider))}</button> `).join('') +
          `</form>${statusLine('connected')}`),
  },
  {
    slug: 'activity',
    name: 'Activity',
    body: () => `<h1>Activity</h1><p>What happened on your account, newest first, failed sign-ins included.</p><ol id="activity-list" class="items"></ol>${statusLine('activity')}`,
  },
  {
    slug: 'export',
    name: 'Export',
    body: () => `<h1>Export</h1><p>Everything the service holds about you, as a JSON file.</p><button type="button" id="export-download">Download my data</button>${statusLine('export')}`,
  },
  {
    slug: 'delete',
    name: 'Delete account',
    body: () =>
      '<h1>Delete account</h1><p>Your account and everything in it are deleted at once; this cannot be undone.</p><form id="delete-form">' +
      currentPassword('delete-password') +
      field('delete-confirm', 'confirm', 'Type DELETE to confirm', 'type="text" autocomplete="off" required pattern="DELETE"') +
      `<button type="submit">Delete account</button></form>${statusLine('delete')}`,
  },
];

/** The step-up asked in place when an operation answers STEP_UP_REQUIRED: a code, then the operation again. */
export const STEP_UP =
  '<form id="step-up-form" hidden><h2 id="step-up-title" tabindex="-1">Confirm it\'s you</h2><p>Enter a code from your authenticator app, or a recovery code.</p>' +
  field('step-up-code', 'code', 'Code', 'type="text" autocomplete="one-time-code" autocapitalize="none" spellcheck="false" required maxlength="64"') +
  '<button type="submit">Verify</button> <button type="button" id="step-up-cancel" class="secondary">Cancel</button><p id="step-up-status" role="status"></p></form>';

/** The console's pages and its script, on raw requests: `prefix` is `/account`. */
export function consolePages(kit: PageKit, prefix: string, settings: ConsoleSettings) {
  const script = `${prefix}/assets/console.js`;
  const render = (current: Section): string => {
    const menu = SECTIONS.map((section) => `<li><a href="${prefix}/${section.slug}"${section === current ? ' aria-current="page"' : ''}>${escapeHtml(section.name)}</a></li>`).join('');
    const sections = SECTIONS.map((section) => `<section id="section-${section.slug}" data-slug="${section.slug}"${section === current ? '' : ' hidden'}>${section.body(settings)}</section>`).join('');
    return kit.page(
      current.name,
      `<nav aria-label="Your account"><ul class="menu">${menu}</ul></nav>` +
        '<p id="console-status" role="status">Signing you in…</p>' +
        `<div id="console" hidden data-first="profile" data-client="${escapeHtml(settings.clientId)}" data-api="${escapeHtml(settings.apiPath)}" data-scope="${escapeHtml(settings.apiScope)}" data-home="${prefix}/" data-link-return="${escapeHtml(settings.linkReturn)}">` +
        `${STEP_UP}${sections}<p><button type="button" id="console-sign-out" class="secondary">Sign out of this device</button></p></div>`,
      script,
      { wide: true },
    );
  };
  const send = (response: ServerResponse, status: number, type: string, body: string, cache: string, csp?: string): void => {
    response.statusCode = status;
    response.setHeader('content-type', type);
    response.setHeader('cache-control', cache);
    // A code comes back in the query once (spent at once, then cleared from the address bar): it is sent nowhere else.
    response.setHeader('referrer-policy', 'no-referrer');
    if (csp !== undefined) response.setHeader('content-security-policy', csp);
    response.end(body);
  };
  const [home] = SECTIONS as [Section];
  const page =
    (section: Section) =>
    (_request: IncomingMessage, response: ServerResponse): void =>
      send(response, 200, 'text/html; charset=utf-8', render(section), 'no-store', kit.csp);
  return {
    script,
    routes: [
      // The built-in app's redirect URI: the sign-in comes back here with a code, the script goes on to the page it left.
      { path: `${prefix}/`, handle: page(home) },
      {
        path: prefix,
        // PUBLIC_APP_URL's own address (a provider's flow may come back here with its code): the console's, query kept.
        handle: (request: IncomingMessage, response: ServerResponse): void => {
          response.statusCode = 308;
          response.setHeader('location', `${prefix}/${new URL(request.url ?? '/', 'http://console').search}`);
          response.setHeader('referrer-policy', 'no-referrer');
          response.end();
        },
      },
      ...SECTIONS.map((section) => ({ path: `${prefix}/${section.slug}`, handle: page(section) })),
      { path: script, handle: (_request: IncomingMessage, response: ServerResponse) => send(response, 200, 'text/javascript; charset=utf-8', CONSOLE_SCRIPT, 'no-cache') },
    ],
  };
}
