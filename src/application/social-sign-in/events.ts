import { type EventDeclarations, appendedAs } from '../ports/event-declarations.js';
import type { RecordedEvent, RequestMetadata } from '../ports/event-log.port.js';
import type { IdGenerator } from '../ports/id-generator.port.js';
import { accountNoticeMail } from '../policies/mail.js';
import type { IdentityEvent } from '../../domain/social-sign-in/identity.js';

/**
 * What social sign-in's events are to the log's readers: a link and an unlink are kept, sent to webhook receivers
 * (with the provider's name), shown in the activity and mailed to the address; a sign-in through a provider is shown
 * in the activity and pruned with the other sign-ins.
 */
export const SOCIAL_SIGN_IN_EVENTS: EventDeclarations<IdentityEvent> = {
  IdentityLinked: {
    retention: 'keep',
    webhook: 'identity.linked',
    shows: ['provider'],
    activity: true,
    notice: ({ provider }, name) =>
      accountNoticeMail(
        name,
        'A sign-in was linked to your account',
        `your ${provider} account was linked: it now signs in to this account. If it was not you, unlink it (your linked sign-ins are listed in your account settings) and reset your password now.`,
      ),
  },
  IdentityUnlinked: {
    retention: 'keep',
    webhook: 'identity.unlinked',
    shows: ['provider'],
    activity: true,
    notice: ({ provider }, name) =>
      accountNoticeMail(name, 'A sign-in was unlinked from your account', `your ${provider} account was unlinked: it signs in to this account no more. If it was not you, reset your password now.`),
  },
  SignedInWithProvider: { retention: 'prune', activity: true },
};

/** Social sign-in's events as a commit appends them: each with its id and request, stamped as declared above. */
export const recordedAsDeclared = (events: readonly IdentityEvent[], ids: IdGenerator, metadata: RequestMetadata): readonly RecordedEvent[] =>
  appendedAs(
    events.map((event) => ({ ...event, eventId: ids.next(), metadata })),
    SOCIAL_SIGN_IN_EVENTS,
  );
