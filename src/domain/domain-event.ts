/**
 * Something that happened to the domain, as plain serialisable data. Never carries a password,
 * a password hash or a token. `aggregateId` is null when no account is involved (a sign-in
 * attempt for an unknown e-mail).
 */
export interface DomainEvent<Type extends string = string, Payload extends object = object> {
  readonly type: Type;
  readonly aggregateId: string | null;
  readonly occurredAt: Date;
  readonly payload: Payload;
}
