import type { IncomingMessage, ServerResponse } from 'node:http';
import { type PageKit, escapeHtml } from '../shared/page-kit.js';

/** A page a mailed link opens: what it does, the operation of the documented API it posts to, what it asks. */
export interface LinkPage {
  /** Its path under the console (`{PUBLIC_APP_URL}/{path}#token=…`, the mail's page names). */
  readonly path: string;
  readonly title: string;
  readonly text: string;
  /** The operation the page posts the link's token to (with the fields below), as any app would. */
  readonly api: string;
  readonly button: string;
  /** What the page says once the operation succeeded. */
  readonly done: string;
  /** A field the person fills (a new password, an address), by its API name and label. */
  readonly field?: { readonly name: string; readonly label: string; readonly type: 'password' | 'email'; readonly autocomplete: string };
  /** False for a page a link opens without a token (the new-device notice's). */
  readonly token?: false;
}

/**
 * Every page a mail links to (src/application/policies/mail.ts names them), when PUBLIC_APP_URL is the service's own
 * console: each asks the person to act (a button, never a GET that changes anything: mail scanners open links), then
 * posts the link's token to the documented API from the page's script.
 */
export const LINK_PAGES: readonly LinkPage[] = [
  { path: 'verify-email', title: 'Confirm your e-mail address', text: 'Confirm that this address is yours, to finish setting up your account.', api: '/auth/verify-email', button: 'Confirm my address', done: 'Your address is confirmed. You can close this page.' },
  { path: 'cancel-sign-up', title: 'Cancel this sign-up?', text: 'Someone signed up with this address. If it was not you, cancel the sign-up: the account is deleted and the address is free.', api: '/auth/verify-email/cancel', button: 'Cancel the sign-up', done: 'The sign-up is cancelled and the account deleted.' },
  {
    path: 'reset-password',
    title: 'Choose a new password',
    text: 'Choose a new password for your account. Every device signed in to it will be signed out.',
    api: '/auth/password-reset/confirm',
    button: 'Reset password',
    done: 'Your password is changed. Sign in with it from the app you use.',
    field: { name: 'newpassword', label: 'New password', type: 'password', autocomplete: 'new-password' },
  },
  { path: 'confirm-email', title: 'Confirm your new e-mail address', text: 'Confirm that this new address is yours: the account then moves to it.', api: '/auth/email/confirm', button: 'Confirm the new address', done: 'Your account is now on this address.' },
  { path: 'cancel-email-change', title: 'Stop this change of address?', text: 'Someone asked to move the account to another address. If it was not you, stop it: every session of the account ends.', api: '/auth/email/cancel', button: 'Stop the change', done: 'The change is stopped and every session ended. Change your password if you did not ask for it.' },
  {
    // Someone who cannot sign in any more (a password forgotten, or changed by someone else): a reset by the address's
    // owner takes the account back whole, every device signed out.
    path: 'forgot-password',
    title: 'Forgot your password?',
    text: 'Enter your address: a link to choose a new password is mailed to it. Every device signed in to your account is signed out, and only the holder of your mailbox can choose the new password.',
    api: '/auth/password-reset',
    button: 'Send me a reset link',
    done: 'If this address has an account, a reset link is on its way to it. Open it from that mailbox.',
    field: { name: 'email', label: 'Email', type: 'email', autocomplete: 'email' },
    token: false,
  },
  { path: 'revert-email-change', title: 'Take your account back?', text: 'The account was moved away from this address. If it was not you, take it back: it returns to this address and every session ends.', api: '/auth/email/revert', button: 'Take my account back', done: 'Your account is back on this address and every session ended. Reset your password now.' },
];

/**
 * The script of the link pages (served from the service's own origin): it takes the token from the link's fragment
 * (which never reaches a server or a log), clears it from the address bar, and posts it, with the page's field, to
 * the page's operation when the person presses its button; the answer's message (and each field's) is shown in an
 * alert. No token is kept anywhere but in the page's memory.
 */
export const LINK_SCRIPT = `'use strict';
(() => {
  const form = document.getElementById('link-form');
  const status = document.getElementById('link-status');
  if (!form || !status) return;
  const needed = form.dataset.token !== 'none';
  const token = new URLSearchParams(location.hash.slice(1)).get('token');
  if (location.hash) history.replaceState(null, '', location.pathname);
  const say = (text, alert) => {
    status.setAttribute('role', alert ? 'alert' : 'status');
    status.textContent = text;
  };
  if (needed && !token) {
    say('This link is incomplete. Open it again from the mail, all of it.', true);
    form.querySelector('button').disabled = true;
    return;
  }
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const button = form.querySelector('button');
    button.disabled = true;
    const body = needed ? { token } : {};
    for (const input of form.querySelectorAll('input[name]')) body[input.name] = input.value;
    try {
      const answer = await fetch(form.dataset.api, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), credentials: 'omit' });
      if (answer.ok) {
        form.hidden = true;
        say(form.dataset.done, false);
        return;
      }
      const refused = await answer.json().catch(() => ({}));
      const fields = (refused.errors || []).filter((issue) => issue.field !== 'token').map((issue) => issue.message);
      say([refused.message || 'That did not work.', ...fields].join(' '), true);
    } catch {
      say('The service could not be reached. Try again in a moment.', true);
    }
    button.disabled = false;
  });
})();
`;

/** The link pages and their script, on raw requests: `prefix` is the console's path (`/account`). */
export function linkPages(kit: PageKit, prefix: string) {
  const script = `${prefix}/assets/links.js`;
  const render = (link: LinkPage): string =>
    kit.page(
      link.title,
      `<h1>${escapeHtml(link.title)}</h1><p>${escapeHtml(link.text)}</p>` +
        // Posted by the script; without it, to the page itself (never a GET: a password in a URL), which answers nothing.
        `<form id="link-form" method="post" data-api="${escapeHtml(link.api)}" data-done="${escapeHtml(link.done)}"${link.token === false ? ' data-token="none"' : ''}>` +
        (link.field === undefined
          ? ''
          : `<label for="${link.field.name}">${escapeHtml(link.field.label)}</label><input id="${link.field.name}" name="${link.field.name}" type="${link.field.type}" autocomplete="${link.field.autocomplete}" required${link.field.type === 'password' ? ' minlength="8"' : ''} maxlength="256">`) +
        `<button type="submit">${escapeHtml(link.button)}</button></form><p id="link-status" role="status"></p>`,
      script,
    );
  const send = (response: ServerResponse, type: string, body: string, cache: string, csp?: string): void => {
    response.statusCode = 200;
    response.setHeader('content-type', type);
    response.setHeader('cache-control', cache);
    // A page with a token in its fragment sends no Referer anywhere.
    response.setHeader('referrer-policy', 'no-referrer');
    if (csp !== undefined) response.setHeader('content-security-policy', csp);
    response.end(body);
  };
  return {
    script,
    pages: LINK_PAGES.map((link) => ({ path: `${prefix}/${link.path}`, handle: (_request: IncomingMessage, response: ServerResponse) => send(response, 'text/html; charset=utf-8', render(link), 'no-store', kit.csp) })),
    handleScript: (_request: IncomingMessage, response: ServerResponse) => send(response, 'text/javascript; charset=utf-8', LINK_SCRIPT, 'public, max-age=3600'),
  };
}
