/** The mails of the account's life: a sign-in from a new device, and the notice of its deletion. */
import { shownDevice } from '../../domain/device.js';
import { type MailContent, escapeHtml, greeting, page } from './mail.js';

/** To the address an account had, once it is deleted: what went, and that nothing of it is kept. */
export function accountDeletedMail(name: string): MailContent {
  const hello = greeting(name);
  const body = 'your account was deleted at your request: its sessions ended, and its passkeys, second factor, linked accounts and personal data are gone.';
  const act = 'If it was not you, someone had your password or a signed-in device: sign up again with this address and use a new password everywhere you used the old one.';
  return {
    subject: 'Your account was deleted',
    text: `${hello.text}\n\n${body}\n\n${act}\n`,
    html: page('Your account was deleted', [hello.html, escapeHtml(body), escapeHtml(act)]),
  };
}

/**
 * A sign-in from a device the account has not used recently: when, from which network, which kind of device (in
 * fixed words only, never the user agent's text), and where to end it.
 */
export function newDeviceMail(name: string | null, seen: { readonly at: Date; readonly device: string; readonly network: string | null }, sessionsLink: string): MailContent {
  const hello = greeting(name);
  const where = seen.network === null ? 'an unknown network' : `the network ${seen.network}`;
  const body = `your account was signed in to on ${seen.at.toUTCString()} from ${shownDevice(seen.device)}, on ${where}.`;
  const act = 'If it was not you, end that session from the list of your signed-in devices and change your password now:';
  return {
    subject: 'A new sign-in to your account',
    text: `${hello.text}\n\n${body}\n\n${act}\n\n${sessionsLink}\n`,
    html: page('A new sign-in to your account', [hello.html, escapeHtml(body), `${escapeHtml(act)} <a href="${escapeHtml(sessionsLink)}">your signed-in devices</a>.`]),
  };
}
