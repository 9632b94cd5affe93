import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AnySchema, InferType } from 'yup';
import type { Config, DerivedSettings } from '../config/config.js';
import type { ConfigDescription } from '../config/config-descriptions.js';
import type { CapabilityNotices } from '../../application/ports/capability-notices.port.js';
import { type AnyEventDeclaration, type AnyEventDeclarations, activityTypesOf, declarationOf } from '../../application/ports/event-declarations.js';
import type { AnyTable } from '../storage/store.js';
import type { EventProjection } from '../storage/store.js';
import type { BindPort, PortGetter } from './bind-port.js';
import type { PeriodicJob } from '../jobs/periodic-job.js';
import type { AdminCommand } from './admin-command.js';

export type { AdminCommand, AdminMetadata } from './admin-command.js';
export { defineCommand } from './admin-command.js';

/** A path a capability answers itself: its methods, its path (Fastify's syntax: a trailing `*` covers what follows) and the handler. */
export interface RawRoute {
  readonly methods: readonly ('GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS')[];
  readonly path: string;
  readonly handle: (request: IncomingMessage, response: ServerResponse, context: RawRequestContext) => Promise<void> | void;
}

/** What the service knows of a raw request besides the request itself: its id, the client's address and whether it came over HTTPS (TRUST_PROXY applied). */
export interface RawRequestContext {
  readonly requestId: string;
  readonly clientIp: string;
  readonly https: boolean;
}

/**
 * What a capability adds to the service, declared once (its manifest, `src/capabilities/<name>.ts`). The composition
 * roots read the one list of manifests (`src/capabilities/index.ts`); the core knows a capability only through this:
 * its tables join the erase, the export, the sweeps and the docs by their declarations, its bindings join the one
 * container, its use cases the one registry, its commands the admin command line.
 */
export interface Capability<U extends object = object, Op = never> {
  readonly name: string;
  /** The squad that owns it (CODEOWNERS). */
  readonly squad: string;
  /** Its homes: one folder per layer it touches (`src/<layer>/<name>/`). */
  readonly folders: readonly string[];
  /** Its tables, each declaring whose records it holds (`Table.owner`), what is personal and when records expire. */
  readonly tables: readonly AnyTable[];
  /** What its events (or the core's) make of its tables kept beside the log, in the commit that appends them. */
  readonly projections?: readonly EventProjection<unknown>[];
  /**
   * Its event types, each with its retention (EVENT_RETENTION_DAYS) and what the core does with it (EventDeclaration:
   * a webhook type and the payload fields it shows, the account's activity, a mail notice): its repositories stamp
   * each event with its declaration as they append it (`appendedAs`), so that the log's retention, the webhooks' index,
   * the outbox and the activity read it from the record; the notices reach the mail dispatcher (CAPABILITY_NOTICES)
   * and the activity types the OpenAPI document (`activityTypesOf`). A type it does not declare is kept and seen by none.
   */
  readonly events: AnyEventDeclarations;
  /** The notices it mails for events of the core it causes (CoreEventNotices): the core keeps, sends and shows them. */
  readonly notices?: Readonly<Record<string, AnyEventDeclaration['notice']>>;
  /**
   * Its environment variables: each one's schema (default and bounds), its topic and what it does, validated by
   * loadConfig with the core's and documented with them (docs/configuration.md); read with `settingsOf`.
   */
  readonly settings: CapabilitySettings;
  /** What its configuration holds beyond fixed variables (a family such as OAUTH_<NAME>_*), checked by loadConfig too. */
  readonly derived?: DerivedSettings<unknown>;
  /** Its own error codes (its `ApplicationError<Code>` classes), each with where it is answered. */
  readonly errors: { readonly [code: string]: string };
  /**
   * Its HTTP operations (declared as the core's are: src/interfaces/http/<name>/), registered, documented and
   * observed with the core's; `run` gets its use cases. The main composition root gives them to the HTTP server.
   */
  readonly operations?: readonly Op[];
  /** Binds its ports and adapters, and the core's extension points it provides (`OPERATOR_KEYS`...). */
  readonly bind: (bindPort: BindPort) => void;
  /** Its use cases, made from what the container holds. */
  readonly useCases: (get: PortGetter) => U;
  /**
   * Paths it answers itself, a protocol engine with its own parsing (the OpenID provider's endpoints): the request as
   * it arrived, its body unread, and the response to write. Served by the HTTP server beside the operations, with its
   * limits and lifecycle, outside the operations' envelope and OpenAPI document.
   */
  readonly rawRoutes?: (get: PortGetter) => readonly RawRoute[];
  /** Its periodic jobs, run with the core's by the one runner (started and stopped with the service). */
  readonly jobs?: (get: PortGetter) => readonly PeriodicJob[];
  /** Its commands for `npm run admin`, each declared with `defineCommand` (its arguments, options and what it runs). */
  readonly commands: readonly AdminCommand<U>[];
}

export type { EventDeclaration, EventDeclarations } from '../../application/ports/event-declarations.js';

/** The notices every capability of `capabilities` declares for its events, by type (the first to declare a type wins). */
export const capabilityNotices = (capabilities: readonly Capability<object, unknown>[]): CapabilityNotices => {
  const byType = new Map(
    capabilities
      .flatMap((capability) => [
        ...Object.keys(capability.events).map((type) => [type, declarationOf(capability.events, type).notice] as const),
        ...Object.entries(capability.notices ?? {}),
      ])
      .reverse(),
  );
  return { noticeOf: (event, name, mail) => byType.get(event.type)?.(event.payload as never, name, mail) ?? null };
};

/** The event types the capabilities of `capabilities` show in the account's activity (the OpenAPI enum lists them). */
export const capabilityActivityTypes = (capabilities: readonly Capability<object, unknown>[]): string[] =>
  capabilities.flatMap((capability) => activityTypesOf(capability.events));

/** One environment variable of a capability: its schema and its documentation. */
export interface CapabilitySetting extends ConfigDescription {
  readonly schema: AnySchema;
}

export type CapabilitySettings = Readonly<Record<string, CapabilitySetting>>;

/**
 * A capability's settings as the configuration holds them, typed by their schemas: validated by loadConfig when the
 * composition root gave it the manifests, else each one's default.
 */
export const settingsOf = <S extends CapabilitySettings>(config: Config, settings: S): { readonly [K in keyof S]: InferType<S[K]['schema']> } =>
  Object.fromEntries(
    Object.entries(settings).map(([name, setting]) => [name, name in config.capabilities ? config.capabilities[name] : setting.schema.validateSync(undefined)]),
  ) as { readonly [K in keyof S]: InferType<S[K]['schema']> };

/** The use cases of every capability of a list, as one object type. */
export type CapabilityUseCases<C extends readonly Capability<object, unknown>[]> = UnionToIntersection<{ [K in keyof C]: C[K] extends Capability<infer U, unknown> ? U : never }[number]>;

type UnionToIntersection<U> = (U extends unknown ? (each: U) => void : never) extends (all: infer I) => void ? I : never;

/**
 * What a capability derived from the environment (its `derived`), as loadConfig kept it when the composition root gave
 * it the manifests; else derived now from no variables at all (each one's default: social sign-in with no provider).
 */
export const derivedOf = <T>(config: Config, derived: DerivedSettings<T>): T =>
  derived.key in config.derived ? (config.derived[derived.key] as T) : derived.derive({}, config);
