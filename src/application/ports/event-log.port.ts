import type { UserEvent, UserEventType } from '../../domain/domain-event.js';
import { token } from './token.js';

/** Who caused an event, captured at the driving edge; the domain never reads it. */
export interface RequestMetadata {
  readonly requestId: string | null;
  readonly clientIp: string | null;
  readonly userAgent: string | null;
}

/** A domain event as stored: the event plus a unique id and the metadata of the request that caused it. */
export type RecordedEvent = UserEvent & { readonly eventId: string; readonly metadata: RequestMetadata };

export interface EmailEventQuery {
  readonly email: string;
  readonly types: readonly UserEventType[];
  /** Only events that occurred at or after this instant. */
  readonly since: Date;
  readonly limit: number;
}

/** The append-only log of domain events. */
export interface EventLog {
  /**
   * Appends events atomically (all or none). Idempotent: an event whose `eventId` is already in the log
   * is skipped, not duplicated and not an error.
   */
  append(events: readonly RecordedEvent[]): Promise<void>;

  /**
   * Events about one e-mail address of the given types, newest first, at most `limit`.
   * Returns an empty array when there are none; never throws for an unknown address.
   */
  findByEmail(query: EmailEventQuery): Promise<RecordedEvent[]>;
}

export const EVENT_LOG = token<EventLog>('EventLog');
