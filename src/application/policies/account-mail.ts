/** The mails of the account's life: a change of address (the notice to the current address, the confirmation to the new one, the revert link to the previous one) and a sign-in from a new device. */
import { shownDevice } from '../../domain/device.js';
import { type MailContent, escapeHtml, greeting, page } from './mail.js';

/** To the current address: a change to `newEmail` was asked for; a link cancels it and ends every session. */
export function emailChangeNoticeMail(name: string | null, newEmail: string, cancelLink: string, ttlHours: number): MailContent {
  const hello = greeting(name);
  const body = `someone signed in to your account asked to move it to ${newEmail}. It moves once that address confirms it.`;
  const cancel = `If it was not you, open this link within ${ttlHours} hours: it cancels the change and signs out every device. Then reset your password.`;
  return {
    subject: 'Your e-mail address is about to change',
    text: `${hello.text}\n\n${body}\n\n${cancel}\n\n${cancelLink}\n`,
    html: page('Your e-mail address is about to change', [hello.html, escapeHtml(body), `${escapeHtml(cancel)} <a href="${escapeHtml(cancelLink)}">Cancel the change</a>.`]),
  };
}

/** To the previous address, once a change is confirmed: a link takes the account back for `days` days. */
export function emailChangedMail(name: string | null, newEmail: string, revertLink: string, days: number): MailContent {
  const hello = greeting(name);
  const body = `the e-mail address of your account was changed to ${newEmail}. This address signs in no more.`;
  const revert = `If it was not you, open this link within ${days} days: it moves the account back to this address, signs out every device, and sends you a link to set a new password.`;
  return {
    subject: 'Your e-mail address was changed',
    text: `${hello.text}\n\n${body}\n\n${revert}\n\n${revertLink}\n`,
    html: page('Your e-mail address was changed', [hello.html, escapeHtml(body), `${escapeHtml(revert)} <a href="${escapeHtml(revertLink)}">Take the account back</a>.`]),
  };
}

/** To the new address: the link that confirms it and moves the account to it. */
export function confirmNewEmailMail(name: string | null, link: string, ttlHours: number): MailContent {
  const hello = greeting(name);
  const body = `confirm this address for your account by opening this link within ${ttlHours} hours`;
  return {
    subject: 'Confirm your new e-mail address',
    text: `${hello.text}\n\n${body}:\n\n${link}\n\nIf you did not ask for it, ignore this mail.\n`,
    html: page('Confirm your new e-mail address', [hello.html, `${escapeHtml(body)}: <a href="${escapeHtml(link)}">confirm</a>.`, 'If you did not ask for it, ignore this mail.']),
  };
}

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
