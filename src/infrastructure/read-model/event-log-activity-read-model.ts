import type { ActivityEntry, ActivityPage, ActivityReadModel } from '../../application/ports/activity-read-model.port.js';
import type { EventLog, PageRequest, RecordedEvent } from '../../application/ports/event-log.port.js';

const snakeCase = (type: string): string => type.replace(/(?<=[a-z0-9])([A-Z])/g, '_$1').toLowerCase();

/**
 * Only the type, time, request address and agent, and a failure reason: never the payload as a whole. What an operator
 * did (an actor recorded) shows as by an administrator, without the address and agent (none recorded since issue 61).
 */
export const toActivityEntry = (event: RecordedEvent): ActivityEntry => {
  const reason: unknown = (event.payload as { reason?: unknown }).reason;
  const byOperator = event.metadata.actor !== undefined;
  return {
    type: snakeCase(event.type),
    occurredAt: new Date(event.occurredAt),
    clientIp: byOperator ? null : event.metadata.clientIp,
    userAgent: byOperator ? null : event.metadata.userAgent,
    ...(typeof reason === 'string' ? { reason } : {}),
    ...(byOperator ? { by: 'administrator' as const, actor: event.metadata.actor } : {}),
  };
};

/** Account activity read straight from the event log (the events of the account's aggregate): works over every storage adapter. */
export class EventLogActivityReadModel implements ActivityReadModel {
  constructor(private readonly events: EventLog) {}

  async page(userId: string, page: PageRequest): Promise<ActivityPage> {
    const { events, nextCursor } = await this.events.findByAggregate(userId, page);
    return { entries: events.map(toActivityEntry), nextCursor };
  }
}
