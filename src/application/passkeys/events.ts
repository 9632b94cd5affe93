import { type EventDeclarations, appendedAs } from '../ports/event-declarations.js';
import type { RecordedEvent, RequestMetadata } from '../ports/event-log.port.js';
import type { IdGenerator } from '../ports/id-generator.port.js';
import { accountNoticeMail } from '../policies/mail.js';
import type { PasskeyEvent } from '../../domain/passkeys/passkey.js';

/**
 * What the passkeys' events are to the log's readers: an addition and a removal are kept, sent to webhook receivers
 * (the account id alone), shown in the activity and mailed to the address (an addition names the passkey for a proven
 * address only); a sign-in with a passkey is shown and pruned with the other sign-ins; a counter that went backwards
 * (a possible clone) is kept and shown.
 */
export const PASSKEY_EVENTS: EventDeclarations<PasskeyEvent> = {
  PasskeyAdded: {
    retention: 'keep',
    webhook: 'passkey.added',
    activity: true,
    notice: ({ name: passkeyName }, name) =>
      accountNoticeMail(
        name,
        'A passkey was added',
        `a passkey${name === null ? '' : ` named "${passkeyName}"`} was added to your account: it signs in without your password. If it was not you, remove it and reset your password now.`,
      ),
  },
  PasskeyRemoved: {
    retention: 'keep',
    webhook: 'passkey.removed',
    activity: true,
    notice: (_payload, name) =>
      accountNoticeMail(name, 'A passkey was removed', 'a passkey was removed from your account: it signs in no more. If it was not you, reset your password now.'),
  },
  SignedInWithPasskey: { retention: 'prune', activity: true },
  PasskeyCounterRegressed: { retention: 'keep', activity: true },
};

/** The passkeys' events as a commit appends them: each with its id and request, stamped as declared above. */
export const recordedAsDeclared = (events: readonly PasskeyEvent[], ids: IdGenerator, metadata: RequestMetadata): readonly RecordedEvent[] =>
  appendedAs(
    events.map((event) => ({ ...event, eventId: ids.next(), metadata })),
    PASSKEY_EVENTS,
  );
