import type { Notice, NoticeMail } from './capability-notices.port.js';
import type { DomainEvent } from '../../domain/domain-event.js';
import type { CapabilityRecordedEvent, RecordedEvent } from './event-log.port.js';

/**
 * What EVENT_RETENTION_DAYS does to an event of one type once it is older than that:
 * - `keep`: never removed; it defines or explains an account;
 * - `prune`: removed (high volume);
 * - `prune-after-sent`: removed once its mail left the outbox (sent or given up); never while it is still due;
 * - `until-sent`: removed with its outbox entry as soon as its mail is sent, whatever its age (it names an erased
 *   account); given up, as `prune-after-sent`.
 */
export type Retention = 'keep' | 'prune' | 'prune-after-sent' | 'until-sent';

/**
 * What a capability declares of one of its event types, in its manifest (`events`): how long the log keeps it, and
 * which of the core's readers of the log see it. Each reader is off unless declared.
 */
export interface EventDeclaration<P extends object> {
  /** What EVENT_RETENTION_DAYS does to it (see Retention). */
  readonly retention: Retention;
  /** The type webhook receivers are sent it as (`identity.linked`); absent: it is sent to none. */
  readonly webhook?: string;
  /**
   * The payload fields its webhook shows beside the account id (`userId`): ids, names of providers, reasons; never a
   * secret, token, address or name. None when absent.
   */
  readonly shows?: readonly (keyof P & string)[];
  /** True: the account's activity (GET /auth/me/activity, the export) shows it, as its snake_case type. */
  readonly activity?: boolean;
  /**
   * The notice mailed to the account's address when it is appended (at least once, by the outbox), greeting the
   * account as `name` (null while the address is unproven, see `greeting`); null: none for this event. Absent: no mail.
   */
  readonly notice?: (payload: P, name: string | null, mail: NoticeMail) => Notice | null;
}

/**
 * The notices a capability mails for events of the core it causes (the change of address, for the account's
 * EmailChanged: the revert link to the previous address), by type: their retention, webhooks and activity stay the
 * core's.
 */
export type CoreEventNotices<E extends DomainEvent> = { readonly [T in E['type']]?: EventDeclaration<Extract<E, { type: T }>['payload']>['notice'] };

/** A capability's declarations of its events, one per type of its events' union `E`: a retention alone, or a declaration. */
export type EventDeclarations<E extends DomainEvent> = { readonly [T in E['type']]: Retention | EventDeclaration<Extract<E, { type: T }>['payload']> };

/** A declaration of any event type, its payload's type erased (the manifest's own map types it: EventDeclarations). */
export type AnyEventDeclaration = EventDeclaration<never>;

/** The declarations of any capability, by event type. */
export type AnyEventDeclarations = Readonly<Record<string, Retention | AnyEventDeclaration>>;

/**
 * What a commit stamps on a capability's event as it appends it (`appendedAs`), for the readers that have no registry
 * of the manifests: the retention (its presence marks a capability's event), and what the declaration turns on.
 */
export interface EventStamps {
  readonly retention?: Retention;
  /** Sent to webhook receivers: as this type, showing these payload fields. */
  readonly webhook?: { readonly type: string; readonly shows: readonly string[] };
  /** Mailed: the outbox takes it. */
  readonly mailed?: true;
  /** Shown in the account's activity. */
  readonly activity?: true;
}

/** The declaration of `type` in `declarations`: a retention alone stands for a declaration turning nothing on; an undeclared type is kept and seen by none. */
export const declarationOf = (declarations: AnyEventDeclarations, type: string): AnyEventDeclaration => {
  const declared = declarations[type];
  return declared === undefined ? { retention: 'keep' } : typeof declared === 'string' ? { retention: declared } : declared;
};

/** The stamps of an event of `type` as `declarations` declare it. */
export const stampsOf = (declarations: AnyEventDeclarations, type: string): EventStamps => {
  const { retention, webhook, shows, activity, notice } = declarationOf(declarations, type);
  return {
    retention,
    ...(webhook === undefined ? {} : { webhook: { type: webhook, shows: [...(shows ?? [])] } }),
    ...(notice === undefined ? {} : { mailed: true as const }),
    ...(activity === true ? { activity: true as const } : {}),
  };
};

/** The types `declarations` show in the account's activity. */
export const activityTypesOf = (declarations: AnyEventDeclarations): string[] =>
  Object.keys(declarations).filter((type) => declarationOf(declarations, type).activity === true);

/**
 * A capability's events as a commit appends them to the one log, each stamped as `declarations` declare its type (a
 * type they do not name is kept and seen by none): the log's indexes and projections read the stamps (retention, the
 * webhooks, the outbox, the activity), not a registry. Whichever port appends them (the capability's, or the core's
 * that it hands them to in one commit with the core's own), they are seen as declared.
 */
export const appendedAs = (events: readonly CapabilityRecordedEvent[], declarations: AnyEventDeclarations): readonly RecordedEvent[] =>
  events.map((event) => ({ ...event, ...stampsOf(declarations, event.type) })) as unknown as readonly RecordedEvent[];
