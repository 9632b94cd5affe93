import { PORT_TOKENS } from '../application/ports/ports.js';
import { PENDING_CHANGES } from '../application/ports/pending-changes.port.js';
import { token } from '../application/di-token.js';
import { EMAIL_CHANGED_NOTICES, EMAIL_CHANGE_EVENTS } from '../application/email-change/events.js';
import { type EmailChangeUseCases, emailChangeUseCases } from '../application/email-change/email-change-use-cases.js';
import { PendingEmailChanges } from '../application/email-change/pending-email-changes.js';
import { EMAIL_CHANGE_REPOSITORY } from '../application/email-change/ports/email-change-repository.port.js';
import type { EmailChangePorts } from '../application/email-change/ports/email-change-ports.js';
import type { EventProjection } from '../infrastructure/storage/store.js';
import { type PortGetter, corePorts } from '../infrastructure/container/bind-port.js';
import type { Capability } from '../infrastructure/container/capability.js';
import { POLICIES, STORAGE } from '../infrastructure/container/tokens.js';
import { PENDING_EMAIL_CHANGES, REVERTIBLE_EMAIL_CHANGES, pendingEmailChanges, revertibleEmailChanges } from '../infrastructure/email-change/email-change-tables.js';
import { StoreEmailChangeRepository } from '../infrastructure/email-change/store-email-change.repository.js';
import { EMAIL_CHANGE_OPERATIONS } from '../interfaces/http/email-change/index.js';

/** The use cases, made once in the container. */
const EMAIL_CHANGE_USE_CASES = token<EmailChangeUseCases>('EmailChangeUseCases');

/** Every port the use cases read: the core's, resolved by their tokens, and the capability's own. */
const portsOf = (get: PortGetter): EmailChangePorts => ({
  ...corePorts(get),
  emailChanges: get(EMAIL_CHANGE_REPOSITORY),
});

/**
 * The change of address: asked for by the holder, confirmed from the new mailbox, cancelled from the current one,
 * reverted from the previous one for 7 days; its pending and revertible changes are projections of the events; a new
 * password ends a pending change (the core's PENDING_CHANGES).
 */
export const emailChange: Capability<EmailChangeUseCases, (typeof EMAIL_CHANGE_OPERATIONS)[number]> = {
  name: 'email-change',
  squad: '@account-service/identity',
  folders: ['src/domain/email-change', 'src/application/email-change', 'src/infrastructure/email-change', 'src/interfaces/http/email-change'],
  tables: [PENDING_EMAIL_CHANGES, REVERTIBLE_EMAIL_CHANGES],
  projections: [pendingEmailChanges as EventProjection<unknown>, revertibleEmailChanges as EventProjection<unknown>],
  events: EMAIL_CHANGE_EVENTS,
  notices: EMAIL_CHANGED_NOTICES,
  settings: {},
  errors: {},
  operations: EMAIL_CHANGE_OPERATIONS,
  bind: (bindPort) => {
    bindPort(EMAIL_CHANGE_REPOSITORY, (get) => new StoreEmailChangeRepository(get(STORAGE).store));
    // What PENDING_CHANGES reads, by its tokens: never the whole of the ports, which hold PENDING_CHANGES itself.
    bindPort(PENDING_CHANGES, (get) => new PendingEmailChanges({ emailChanges: get(EMAIL_CHANGE_REPOSITORY), ids: get(PORT_TOKENS.ids) }));
    bindPort(EMAIL_CHANGE_USE_CASES, (get) => emailChangeUseCases(portsOf(get), get(POLICIES)));
  },
  useCases: (get) => get(EMAIL_CHANGE_USE_CASES),
  commands: [],
};
