import { newDeviceSignedIn, sameDevice } from '../../domain/device.js';
import type { RequestMetadata } from '../ports/event-log.port.js';
import type { Ports } from '../ports/ports.js';
import { type MailSettings, mailLimit } from './mail.js';

/**
 * The notice a sign-in asks for when it comes from a device the account has not used recently: none of its live
 * sessions (opened before this one) shares this request's device and network. Nothing when NEW_DEVICE_NOTICE is off,
 * nor for an address nobody proved (anyone may have typed it). The event is committed with the session it names; the
 * mail leaves from the outbox, never in the request (see noticeMayGo).
 */
export async function newDeviceNotice(
  deps: Pick<Ports, 'sessionViews' | 'clock'>,
  enabled: boolean | undefined,
  account: { readonly id: string; readonly email: string; readonly emailVerified: boolean },
  sessionId: string,
  metadata: RequestMetadata,
) {
  if (enabled !== true || !account.emailVerified) return [];
  const at = deps.clock.now();
  const known = await deps.sessionViews.live(account.id, at);
  return known.some((session) => session.id !== sessionId && sameDevice(session, metadata)) ? [] : [newDeviceSignedIn(account.id, account.email, sessionId, metadata, at)];
}

/**
 * Whether a new-device notice may be mailed now: the address is (still) proven, and fewer than the verification cap
 * (VERIFICATION_MAIL_MAX_PER_ADDRESS per VERIFICATION_MAIL_WINDOW_SECONDS) of notices went to it, counted under its
 * own key as each is sent; past it, none (a stolen password cannot flood the owner's mailbox).
 */
export async function noticeMayGo(deps: Pick<Ports, 'limits' | 'clock'>, cap: MailSettings['verificationPerAddress'], account: { readonly emailVerified: boolean }, email: string): Promise<boolean> {
  return account.emailVerified && (await deps.limits.take(mailLimit(cap, 'new-device', email), deps.clock.now())) === null;
}
