import { newDeviceSignedIn, sameDevice } from '../../domain/device.js';
import type { RequestMetadata } from '../ports/event-log.port.js';
import type { Ports } from '../ports/ports.js';

/**
 * The notice a sign-in asks for when it comes from a device the account has not used recently: none of its live
 * sessions (opened before this one) shares this request's device and network. Nothing when NEW_DEVICE_NOTICE is off.
 * The event is committed with the session it names; the mail leaves from the outbox, never in the request.
 */
export async function newDeviceNotice(
  deps: Pick<Ports, 'sessionViews' | 'clock'>,
  enabled: boolean | undefined,
  account: { readonly id: string; readonly email: string },
  sessionId: string,
  metadata: RequestMetadata,
) {
  if (enabled !== true) return [];
  const at = deps.clock.now();
  const known = await deps.sessionViews.live(account.id, at);
  return known.some((session) => session.id !== sessionId && sameDevice(session, metadata)) ? [] : [newDeviceSignedIn(account.id, account.email, sessionId, metadata, at)];
}
