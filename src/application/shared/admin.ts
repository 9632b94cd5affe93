import type { User } from '../../domain/user.js';
import { UserNotFound } from '../errors.js';
import type { RequestMetadata } from '../ports/event-log.port.js';
import type { UserRepository } from '../ports/user-repository.port.js';
import type { UserView } from '../ports/user-read-model.port.js';
import { type ApiKeyPrincipal, actorOf } from './operator.js';

/** An admin command: the account it acts on, the key (or operator) that asks, and the request. */
export interface AdminCommand {
  readonly userId: string;
  readonly key: ApiKeyPrincipal;
  readonly metadata: RequestMetadata;
}

/**
 * The metadata an admin command records its events with: the key (`key:<id>`) or the operator (`operator:<account
 * id>`) as the actor and the request's id (which finds the
 * operator's request in the request log), never the operator's address or user agent: the events are the account's,
 * which its owner reads (activity, export).
 */
export const adminMetadata = (command: AdminCommand): RequestMetadata => ({ requestId: command.metadata.requestId, clientIp: null, userAgent: null, actor: actorOf(command.key) });

/** The account an admin command acts on, read now (each try of a commit reads it again); UserNotFound when there is none. */
export async function adminTarget(users: Pick<UserRepository, 'findById'>, command: AdminCommand): Promise<User> {
  const user = await users.findById(command.userId);
  if (!user) throw new UserNotFound();
  return user;
}

/** An account as the admin API shows it: its public resource and whether it is disabled; never a secret. */
export interface AdminUserResource extends UserView {
  readonly disabled: boolean;
}
