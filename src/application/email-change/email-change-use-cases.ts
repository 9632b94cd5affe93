import type { Policies } from '../registry.js';
import type { EmailChangePorts } from './ports/email-change-ports.js';
import { CancelEmailChangeHandler } from './use-cases/cancel-email-change/cancel-email-change.handler.js';
import { ConfirmEmailChangeHandler } from './use-cases/confirm-email-change/confirm-email-change.handler.js';
import { RequestEmailChangeHandler } from './use-cases/request-email-change/request-email-change.handler.js';
import { RevertEmailChangeHandler } from './use-cases/revert-email-change/revert-email-change.handler.js';

/**
 * The change of address's use cases: asked for by the holder (proved as for any credential), confirmed from the new
 * mailbox, cancelled from the current one ("not me"), reverted from the previous one within its window.
 */
export const emailChangeUseCases = (ports: EmailChangePorts, policies: Policies) =>
  ({
    requestEmailChange: new RequestEmailChangeHandler(ports, policies),
    confirmEmailChange: new ConfirmEmailChangeHandler(ports, policies.mail),
    cancelEmailChange: new CancelEmailChangeHandler(ports, policies.mail),
    revertEmailChange: new RevertEmailChangeHandler(ports),
  }) as const;

export type EmailChangeUseCases = ReturnType<typeof emailChangeUseCases>;
