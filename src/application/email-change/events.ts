import { type CoreEventNotices, type EventDeclarations, appendedAs } from '../ports/event-declarations.js';
import type { RecordedEvent, RequestMetadata } from '../ports/event-log.port.js';
import type { IdGenerator } from '../ports/id-generator.port.js';
import type { EmailChangeEvent } from '../../domain/email-change/email-change.js';
import { EMAIL_CHANGE_REVERT_SECONDS } from '../../domain/email-change/email-change.js';
import type { EmailChanged } from '../../domain/user.js';
import { confirmNewEmailMail, emailChangeNoticeMail, emailChangedMail } from './mails.js';

const hours = (seconds: number): number => Math.round(seconds / 3600);

/**
 * What a change of address's events are to the log's readers: the request mails its notice (with the link that
 * cancels it) to the current address and its confirmation link to the new one, both pruned once sent; a cancellation
 * is kept and shown. All three are in the activity.
 */
export const EMAIL_CHANGE_EVENTS: EventDeclarations<EmailChangeEvent> = {
  EmailChangeRequested: {
    retention: 'prune-after-sent',
    activity: true,
    notice: ({ newEmail, binding }, name, mail) =>
      emailChangeNoticeMail(name, newEmail, mail.link('email-cancel', binding), hours(mail.verificationTtlSeconds)),
  },
  NewEmailConfirmationRequested: {
    retention: 'prune-after-sent',
    activity: true,
    notice: ({ email, binding }, name, mail) => ({ ...confirmNewEmailMail(name, mail.link('email-change', binding), hours(mail.verificationTtlSeconds)), to: email }),
  },
  EmailChangeCancelled: { retention: 'keep', activity: true },
};

/** The change of address's events as a commit appends them: each with its id and request, stamped as declared above. */
export const recordedAsDeclared = (events: readonly EmailChangeEvent[], ids: IdGenerator, metadata: RequestMetadata): readonly RecordedEvent[] =>
  appendedAs(
    events.map((event) => ({ ...event, eventId: ids.next(), metadata })),
    EMAIL_CHANGE_EVENTS,
  );

/**
 * The notice of the account's EmailChanged, which the change of address causes: to the previous address, with the
 * link that takes the account back for 7 days. The event is the core's (it keeps, sends and shows it).
 */
export const EMAIL_CHANGED_NOTICES: CoreEventNotices<EmailChanged> = {
  EmailChanged: ({ email, previousEmail }, name, mail) => ({
    ...emailChangedMail(name, email, mail.link('email-revert', mail.bindingFor('email-revert', { email, previousEmail, passwordHash: '' })), Math.round(EMAIL_CHANGE_REVERT_SECONDS / 86_400)),
    to: previousEmail,
  }),
};
