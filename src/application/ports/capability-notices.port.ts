import { token } from '../di-token.js';
import type { MailContent } from '../policies/mail.js';
import type { BindingSubject, OneTimePurpose } from './one-time-tokens.port.js';

/** What a notice may use beyond its event's payload: a link to the app's page with a one-time token, and lifetimes. */
export interface NoticeMail {
  /** The link of `purpose` to the app's page, carrying a token for the event's account issued at the event's time, bound to `binding`. */
  link(purpose: OneTimePurpose, binding: string): string;
  /** The binding of a token of `purpose` to `subject`, of the event's account (for a link bound to state the payload holds). */
  bindingFor(purpose: OneTimePurpose, subject: Omit<BindingSubject, 'id'>): string;
  /** How long a verification link stays valid, in seconds (VERIFICATION_TTL_SECONDS). */
  readonly verificationTtlSeconds: number;
}

/** A notice, and where it goes when that is not the account's current address (a new address, the previous one). */
export type Notice = MailContent & { readonly to?: string };

/**
 * The mail notices the capabilities declare for their events (`notice` of an event's declaration in its manifest),
 * rendered by the mail dispatcher for the events its outbox holds. Filled by the composition from the list of manifests.
 */
export interface CapabilityNotices {
  /**
   * The notice the capability that declared `event`'s type mails for it, greeting the account as `name` (null while its
   * address is unproven); null when no capability declares a notice for that type (the core's types included) or its
   * notice sends none for this event. Pure and idempotent; never throws for an unknown type.
   */
  noticeOf(event: { readonly type: string; readonly payload: object }, name: string | null, mail: NoticeMail): Notice | null;
}

export const CAPABILITY_NOTICES = token<CapabilityNotices>('CapabilityNotices');
