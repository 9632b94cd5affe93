import type { UserEvent } from '../../domain/domain-event.js';
import type { User } from '../../domain/user.js';
import type { IdGenerator } from '../ports/id-generator.port.js';
import type { RecordedEvent, RequestMetadata } from '../ports/event-log.port.js';

/** The public user resource: nothing secret. */
export interface UserView {
  readonly id: string;
  readonly name: string;
  readonly lastname: string;
  readonly email: string;
}

export interface AuthResult {
  readonly user: UserView;
  readonly accessToken: string;
}

export const toUserView = (user: User): UserView => ({
  id: user.id,
  name: user.name.value,
  lastname: user.lastname.value,
  email: user.email.value,
});

/** Gives each domain event its id and the metadata of the request that caused it. */
export const recordEvents = (events: readonly UserEvent[], ids: IdGenerator, metadata: RequestMetadata): RecordedEvent[] =>
  events.map((event) => ({ ...event, eventId: ids.next(), metadata }));
