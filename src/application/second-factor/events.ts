import { type EventDeclarations, appendedAs } from '../ports/event-declarations.js';
import type { RecordedEvent, RequestMetadata } from '../ports/event-log.port.js';
import type { IdGenerator } from '../ports/id-generator.port.js';
import { accountNoticeMail } from '../policies/mail.js';
import type { SecondFactorEvent } from '../../domain/second-factor/second-factor.js';

/**
 * What the second factor's events are to the log's readers: all four are kept and shown in the activity; an
 * enrolment and a removal are sent to webhook receivers (the account id alone) and mailed, and so is a recovery code
 * spent, so that a stolen password and session cannot change the factor, nor a stolen recovery code be used, unnoticed.
 */
export const SECOND_FACTOR_EVENTS: EventDeclarations<SecondFactorEvent> = {
  MfaEnrolled: {
    retention: 'keep',
    webhook: 'mfa.enrolled',
    activity: true,
    notice: (_payload, name) =>
      accountNoticeMail(name, 'Two-step sign-in is on', 'an authenticator app was added to your account: signing in now asks for its code. If it was not you, reset your password now and contact us.'),
  },
  MfaRemoved: {
    retention: 'keep',
    webhook: 'mfa.removed',
    activity: true,
    notice: (_payload, name) =>
      accountNoticeMail(
        name,
        'Two-step sign-in is off',
        'the authenticator app was removed from your account, with its recovery codes: signing in asks for your password only. If it was not you, reset your password now.',
      ),
  },
  RecoveryCodeUsed: {
    retention: 'keep',
    activity: true,
    notice: ({ left }, name) =>
      accountNoticeMail(
        name,
        'A recovery code was used',
        `one of your recovery codes was used to sign in or confirm it is you; ${left} unused ${left === 1 ? 'code remains' : 'codes remain'}. If it was not you, reset your password and make new recovery codes now.`,
      ),
  },
  RecoveryCodesRegenerated: { retention: 'keep', activity: true },
};

/** The second factor's events as a commit appends them: each with its id and request, stamped as declared above. */
export const recordedAsDeclared = (events: readonly SecondFactorEvent[], ids: IdGenerator, metadata: RequestMetadata): readonly RecordedEvent[] =>
  appendedAs(
    events.map((event) => ({ ...event, eventId: ids.next(), metadata })),
    SECOND_FACTOR_EVENTS,
  );
