import { token } from '../di-token.js';
import type { MailContent } from '../policies/mail.js';

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
  noticeOf(event: { readonly type: string; readonly payload: object }, name: string | null): MailContent | null;
}

export const CAPABILITY_NOTICES = token<CapabilityNotices>('CapabilityNotices');
