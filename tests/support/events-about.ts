import type { RecordedEvent } from '../../src/application/ports/event-log.port.js';
import type { UserEventType } from '../../src/domain/user.js';
import { EVENTS, type EventRecord, toRecordedEvent } from '../../src/infrastructure/storage/event-tables.js';
import type { Store, Stored } from '../../src/infrastructure/storage/store.js';

export interface EmailEventQuery {
  readonly email: string;
  readonly types: readonly UserEventType[];
  /** Only events that occurred at or after this instant. */
  readonly since: Date;
  readonly limit: number;
}

const ALL = 1_000_000;

/**
 * The events about one address of these types, newest first, read as the tests need them: the log has no index by
 * address (its payloads are sealed at rest), so this walks every event of an account and every prunable one, opened by
 * the store as any read opens them.
 */
export async function eventsAbout(store: Store, query: EmailEventQuery): Promise<RecordedEvent[]> {
  const found = new Map<string, Stored<EventRecord>>();
  for (const index of ['byAggregate', 'prunable']) for (const stored of await store.range(EVENTS, index, { prefix: [], limit: ALL })) found.set(stored.key, stored);
  return [...found.values()]
    .map((stored) => stored.value)
    .filter((event) => event.payload !== null && 'email' in event.payload && event.payload.email === query.email)
    .filter((event) => (query.types as readonly string[]).includes(event.type) && event.occurredAt.getTime() >= query.since.getTime())
    .sort((a, b) => (a.seq < b.seq ? 1 : -1))
    .slice(0, query.limit)
    .map(toRecordedEvent);
}
