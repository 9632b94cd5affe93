import type { RequestMetadata } from '../ports/event-log.port.js';
import type { UserView } from '../ports/user-read-model.port.js';
import { type ApiKeyPrincipal, keyActor } from './api-key-resource.js';

/** An admin command: the account it acts on, the key that asks, and the request. */
export interface AdminCommand {
  readonly userId: string;
  readonly key: ApiKeyPrincipal;
  readonly metadata: RequestMetadata;
}

/** The metadata an admin command records its events with: the request's, and the key as the actor. */
export const adminMetadata = (command: AdminCommand): RequestMetadata => ({ ...command.metadata, actor: keyActor(command.key.keyId) });

/** An account as the admin API shows it: its public resource and whether it is disabled; never a secret. */
export interface AdminUserResource extends UserView {
  readonly disabled: boolean;
}
