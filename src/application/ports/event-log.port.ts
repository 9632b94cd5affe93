import type { DomainEvent } from '../../domain/domain-event.js';
import type { UserEvent } from '../../domain/user.js';
import { token } from '../di-token.js';

/** Who caused an event, captured at the driving edge; the domain never reads it. */
export interface RequestMetadata {
  readonly requestId: string | null;
  readonly clientIp: string | null;
  readonly userAgent: string | null;
  /** Who acted when not the account's holder: an API key (`key:<id>`, the admin API) or the command line (`cli`). */
  readonly actor?: string;
}

/** A domain event as stored: the event plus a unique id and the metadata of the request that caused it. */
export type RecordedEvent = UserEvent & { readonly eventId: string; readonly metadata: RequestMetadata };

/**
 * A capability's event as stored (API keys': ApiKeyCreated...): appended to the same log in its commit, of a type the
 * core's union does not hold. The core's readers of the log see it as its capability declared (its manifest's `events`).
 */
export type CapabilityRecordedEvent<E extends DomainEvent = DomainEvent> = E & { readonly eventId: string; readonly metadata: RequestMetadata };

export interface PageRequest {
  readonly limit: number;
  /** The `nextCursor` of the previous page, or null for the newest events. */
  readonly cursor: string | null;
}

export interface EventPage {
  readonly events: RecordedEvent[];
  /** Opaque; pass it back for the next (older) page. Null when there is nothing older. */
  readonly nextCursor: string | null;
}

/** The append-only log of domain events. */
export interface EventLog {
  /**
   * Appends events atomically (all or none). Idempotent: an event whose `eventId` is already in the log
   * is skipped, not duplicated and not an error.
   */
  append(events: readonly RecordedEvent[]): Promise<void>;

  /**
   * One page of the events of one aggregate as its account's activity sees them, newest first: a capability's event
   * only where its capability declared it for the activity (`activity`). An unknown aggregate gives an empty page.
   * Throws `InvalidCursor` for a cursor this adapter did not issue.
   */
  findByAggregate(aggregateId: string, page: PageRequest): Promise<EventPage>;
}

export const EVENT_LOG = token<EventLog>('EventLog');
