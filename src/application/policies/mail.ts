import type { Limit } from '../ports/attempt-limits.port.js';
import type { OneTimePurpose } from '../ports/one-time-tokens.port.js';

export interface MailSettings {
  readonly resetTtlSeconds: number;
  readonly verificationTtlSeconds: number;
  /** The integrator's front-end page the links point at; the token travels in the URL fragment. */
  readonly publicAppUrl: string;
  /** When true, sign-in of an account whose address is not verified answers 403. */
  readonly requireVerifiedEmail: boolean;
  /** An account whose address nobody proved within this is erased by the sweep (SignUpCancelled, `unverified_expired`); 0: never. */
  readonly unverifiedAccountTtlSeconds?: number;
  /** Reset requests per address per window; past it, 202 as always, and no mail. */
  readonly resetPerAddress: { readonly max: number; readonly windowSeconds: number };
  /** Verification mails per address (so per account) per window, the one sign-up sends included; past it, 202 and no mail. */
  readonly verificationPerAddress: { readonly max: number; readonly windowSeconds: number };
}

/**
 * The per-address cap of reset, verification or new-device mails (`cap.max` within `cap.windowSeconds`), counted by
 * AttemptLimits in one write, so simultaneous requests past the cap send nothing.
 */
export const mailLimit = (cap: { readonly max: number; readonly windowSeconds: number }, purpose: OneTimePurpose | 'new-device', email: string): Limit => ({
  key: `${purpose}:${email}`,
  max: cap.max,
  windowSeconds: cap.windowSeconds,
});

const PAGES: Readonly<Record<OneTimePurpose, string>> = {
  reset: 'reset-password', verify: 'verify-email', 'email-change': 'confirm-email', 'email-cancel': 'cancel-email-change',
  'email-revert': 'revert-email-change',
};

/** The link of a mail: `<PUBLIC_APP_URL>/<page>#token=<token>` (a fragment never reaches a server or a Referer). */
export const linkFor = (settings: MailSettings, purpose: OneTimePurpose, oneTimeToken: string, page: string = PAGES[purpose]): string =>
  `${settings.publicAppUrl.replace(/\/+$/, '')}/${page}#token=${encodeURIComponent(oneTimeToken)}`;

/** The page of the verification mail's second action ("not me"), which posts its token to POST /auth/verify-email/cancel. */
export const CANCEL_SIGN_UP_PAGE = 'cancel-sign-up';

const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);

export interface MailContent {
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/**
 * The greeting: the account's name only once its owner proved the address. Until then anyone may have typed both the
 * address and the name, so a mail to an unverified address carries no text its sender chose.
 */
export const greeting = (name: string | null) => ({ text: name === null ? 'Hello,' : `Hello ${name},`, html: name === null ? 'Hello,' : `Hello ${escapeHtml(name)},` });

export const page = (title: string, paragraphs: readonly string[]): string =>
  `<!doctype html><html><body><h1>${escapeHtml(title)}</h1>${paragraphs.map((p) => `<p>${p}</p>`).join('')}</body></html>`;

/** The verification mail: the link in both bodies. `name` is null for an address not yet verified (see greeting). */
/**
 * The verification mail, with both actions for its one token: confirm, or "not me" (delete the account someone made
 * with this address). It warns against confirming an address one never signed up for: that would hand the stranger
 * a verified account on it.
 */
export function verificationMail(name: string | null, link: string, ttlHours: number, cancelLink: string): MailContent {
  const hello = greeting(name);
  const warning = 'If you did not sign up, do not confirm: someone used your address, and confirming would give them an account on it.';
  return {
    subject: 'Confirm your e-mail address',
    text:
      `${hello.text}\n\nconfirm your e-mail address by opening this link within ${ttlHours} hours:\n\n${link}\n\n` +
      `${warning} Open this link instead to delete that account and free your address:\n\n${cancelLink}\n`,
    html: page('Confirm your e-mail address', [
      hello.html,
      `confirm your e-mail address by opening <a href="${escapeHtml(link)}">this link</a> within ${ttlHours} hours.`,
      `${warning} <a href="${escapeHtml(cancelLink)}">Delete that account and free your address</a> instead.`,
    ]),
  };
}

/** The reset mail. */
export function resetMail(name: string | null, link: string, ttlMinutes: number): MailContent {
  const hello = greeting(name);
  return {
    subject: 'Reset your password',
    text: `${hello.text}\n\nchoose a new password by opening this link within ${ttlMinutes} minutes:\n\n${link}\n\nIf you did not ask for it, ignore this mail: your password stays as it is.\n`,
    html: page('Reset your password', [
      hello.html,
      `choose a new password by opening <a href="${escapeHtml(link)}">this link</a> within ${ttlMinutes} minutes.`,
      'If you did not ask for it, ignore this mail: your password stays as it is.',
    ]),
  };
}

/** The notice after a password change: by a reset link (every device signed out) or by the signed-in owner (every other one). */
export function passwordChangedMail(name: string | null, by: 'reset' | 'owner'): MailContent {
  const hello = greeting(name);
  const devices = by === 'reset' ? 'every device was signed out' : 'every other device was signed out';
  const body = `your password was changed, and ${devices}. If it was not you, reset your password now.`;
  return {
    subject: 'Your password was changed',
    text: `${hello.text}\n\n${body}\n`,
    html: page('Your password was changed', [hello.html, escapeHtml(body)]),
  };
}

/**
 * The notice of a reset that proved the address for the first time: every way in added before it was removed (a
 * stolen session's factor or passkey cannot outlive the owner's reset), and every session ended.
 */
export const credentialsRemovedMail = (name: string | null): MailContent =>
  accountNoticeMail(
    name,
    'Your account is yours again',
    'your password was reset from this mailbox, which proves the address is yours: every passkey, authenticator app and recovery code added to the account before that was removed, and every session ended. Add your own again once you are signed in.',
  );

/**
 * A notice of a change to the account (never a code or a secret), greeting `name` (null while the address is
 * unproven): the one shape of every security notice, the capabilities' included (their events' `notice`).
 */
export function accountNoticeMail(name: string | null, subject: string, body: string): MailContent {
  const hello = greeting(name);
  return { subject, text: `${hello.text}\n\n${body}\n`, html: page(subject, [hello.html, escapeHtml(body)]) };
}
