/** The mails of a change of address: the notice to the current address, the confirmation to the new one, the revert link to the previous one. */
import { type MailContent, escapeHtml, greeting, page } from '../policies/mail.js';

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
