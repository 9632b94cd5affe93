import type { RecordedEvent } from '../../application/ports/event-log.port.js';
import type { OutboxEntry } from '../storage/outbox-entry.js';
import { type ProjectionTable, type ProjectionTables, applyProjections } from '../storage/projections.js';

/** A projection's table over a Map. */
const mapTable = <Row>(map: Map<string, Row>): ProjectionTable<Row, void> => ({
  insert: (key, row) => void map.set(key, row),
  update: (key, next) => void map.set(key, next(map.get(key))),
  remove: (key) => void map.delete(key),
});

/**
 * The event log and the outbox behind the in-memory adapters (the storage primitive's tables are InMemoryTables).
 * Each adapter method does its check-and-write in one synchronous step, which makes it atomic on Node's single
 * thread, the same guarantee a transaction gives.
 */
export class InMemoryStore {
  readonly events: RecordedEvent[] = [];
  readonly eventIds = new Set<string>();
  /** Mails not yet sent, by event id, in the order their events were appended. */
  readonly outbox = new Map<string, OutboxEntry>();
  private readonly projections: ProjectionTables<void> = { outbox: mapTable(this.outbox) };
  private isClosed = false;

  get closed(): boolean {
    return this.isClosed;
  }

  /** Marks the store closed: its health check refuses from now on. Idempotent. */
  close(): Promise<void> {
    this.isClosed = true;
    return Promise.resolve();
  }

  /** Appends events (an eventId already stored is skipped) and applies every projection to each new one, in one step. */
  appendEvents(events: readonly RecordedEvent[]): void {
    for (const event of events) {
      if (this.eventIds.has(event.eventId)) continue;
      this.eventIds.add(event.eventId);
      this.events.push(structuredClone(event));
      applyProjections(event, this.projections);
    }
  }
}
