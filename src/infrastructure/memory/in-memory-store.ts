import { nextFailures } from '../sign-in-failures.js';
import type { RecordedEvent } from '../../application/ports/event-log.port.js';
import type { SessionSnapshot } from '../../domain/session.js';
import { type OutboxEntry, needsMail, newEntry } from '../outbox-entry.js';
import type { UserSnapshot } from '../../domain/user.js';

/**
 * The state behind the in-memory adapters. Each adapter method does its check-and-write in one
 * synchronous step, which makes it atomic on Node's single thread, the same guarantee a transaction gives.
 */
export class InMemoryStore {
  readonly users = new Map<string, UserSnapshot>();
  readonly userIdsByEmail = new Map<string, string>();
  readonly events: RecordedEvent[] = [];
  readonly eventIds = new Set<string>();
  readonly sessions = new Map<string, SessionSnapshot>();
  /** Mails not yet sent, by event id, in the order their events were appended. */
  readonly outbox = new Map<string, OutboxEntry>();
  private isClosed = false;

  get closed(): boolean {
    return this.isClosed;
  }

  /** Marks the store closed: its health check refuses from now on. Idempotent. */
  close(): Promise<void> {
    this.isClosed = true;
    return Promise.resolve();
  }

  /** Per e-mail: failed sign-ins since the last successful one, newest first (epoch ms). */
  readonly signInFailures = new Map<string, number[]>();

  /** Stores a new session (by copy). */
  putSession(snapshot: SessionSnapshot): void {
    this.sessions.set(snapshot.id, structuredClone(snapshot));
  }

  appendEvents(events: readonly RecordedEvent[]): void {
    for (const event of events) {
      if (this.eventIds.has(event.eventId)) continue;
      this.eventIds.add(event.eventId);
      this.events.push(structuredClone(event));
      if (needsMail(event)) this.outbox.set(event.eventId, newEntry(event.eventId));
      const failures = nextFailures(this.signInFailures.get(event.payload.email), event);
      if (failures === null) this.signInFailures.delete(event.payload.email);
      else if (failures) this.signInFailures.set(event.payload.email, failures);
    }
  }
}
