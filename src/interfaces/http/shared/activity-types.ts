import type { SignInFailureReason, UserEventType } from '../../../domain/user.js';
import type { RevocationReason } from '../../../domain/session.js';

/**
 * Every event type an account's activity can show. Typed by the domain's union: a new event type fails to compile until
 * listed. SignUpCancelled, AccountDeleted and AccountDeletionNoticed are left out: each is recorded as its account is erased, so no feed can show it. A capability's events are not in this union: each manifest declares those the activity shows.
 */
const EVENT_TYPES: { readonly [T in Exclude<UserEventType, 'SignUpCancelled' | 'AccountDeleted' | 'AccountDeletionNoticed'>]: true } = {
  UserRegistered: true,
  AccountDisabled: true,
  AccountEnabled: true,
  CredentialsRemoved: true,
  NewDeviceSignedIn: true,
  EmailChanged: true,
  EmailChangeReverted: true,
  UserSignedIn: true,
  PasswordRehashed: true,
  ProfileChanged: true,
  PasswordChanged: true,
  SignInFailed: true,
  SessionStarted: true,
  SessionRevoked: true,
  SessionsEnded: true,
  RefreshTokenReused: true,
  EmailVerificationRequested: true,
  PasswordResetRequested: true,
  EmailVerified: true,
  PasswordReset: true,
};

const REASONS: { readonly [R in SignInFailureReason | RevocationReason]: true } = {
  unknown_email: true,
  wrong_password: true,
  wrong_current_password: true,
  wrong_code: true,
  sign_out: true,
  revoked: true,
  password_changed: true,
  reuse_detected: true,
  expired: true,
  too_many_password_failures: true,
  evicted: true,
  email_verified: true,
  email_change_cancelled: true,
  email_change_reverted: true,
  admin: true,
};

const snakeCase = (type: string): string => type.replace(/(?<=[a-z0-9])([A-Z])/g, '_$1').toLowerCase();

/** The `type` values of GET /auth/me/activity entries of the core's events (snake_case event types): the OpenAPI enum. */
export const ACTIVITY_TYPES: readonly string[] = Object.keys(EVENT_TYPES).map(snakeCase);

/** The core's `type` values and those of the event types the capabilities show (their manifests' `activity`), once each. */
export const activityTypesWith = (capabilityTypes: readonly string[]): readonly string[] => [...new Set([...ACTIVITY_TYPES, ...capabilityTypes.map(snakeCase)])];
/** The `reason` values of failed sign-ins and ended sessions: the OpenAPI enum. */
export const ACTIVITY_REASONS: readonly string[] = Object.keys(REASONS);
