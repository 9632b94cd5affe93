import {
  MongoClientClosedError,
  MongoError,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoServerError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
} from 'mongodb';
import { ServiceUnavailable } from '../../application/errors.js';
import { EmailAlreadyRegistered } from '../../domain/domain-error.js';

/** How long a client should wait before retrying while MongoDB is unreachable. */
export const STORE_RETRY_AFTER_SECONDS = 5;

/**
 * Server error codes that mean "no primary reachable right now" rather than "this request is wrong":
 * HostUnreachable, HostNotFound, NetworkTimeout, ShutdownInProgress, PrimarySteppedDown, NotWritablePrimary,
 * InterruptedAtShutdown, InterruptedDueToReplStateChange, NotPrimaryNoSecondaryOk, NotPrimaryOrSecondary.
 */
const UNAVAILABLE_CODES: ReadonlySet<number> = new Set([6, 7, 89, 91, 189, 10107, 11600, 11602, 13435, 13436]);

const UNAVAILABLE_CLASSES = [MongoNetworkError, MongoServerSelectionError, MongoTopologyClosedError, MongoNotConnectedError, MongoClientClosedError];

/** A MongoDB failure that is neither a domain outcome nor an outage. Its message names the driver error class only. */
export class MongoStoreFailure extends Error {
  constructor(cause: MongoError) {
    const kind: unknown = cause instanceof MongoServerError ? (cause.codeName ?? cause.code ?? cause.name) : cause.name;
    super(`MongoDB operation failed (${String(kind)})`, { cause });
    this.name = 'MongoStoreFailure';
  }
}

/** True for a duplicate-key error (11000) raised by a unique index that covers `field`. */
export function isDuplicateKeyOn(error: unknown, field: string): boolean {
  if (!(error instanceof MongoServerError) || error.code !== 11000) return false;
  const keyPattern: unknown = error.keyPattern;
  if (typeof keyPattern === 'object' && keyPattern !== null) return Object.hasOwn(keyPattern, field);
  return error.message.includes(`dup key: { ${field}: `);
}

/** True when the error means MongoDB cannot be reached or has no writable primary right now. */
export function isUnavailable(error: MongoError): boolean {
  if (UNAVAILABLE_CLASSES.some((type) => error instanceof type)) return true;
  if (error.name === 'MongoWaitQueueTimeoutError') return true;
  if (typeof error.code === 'number' && UNAVAILABLE_CODES.has(error.code)) return true;
  return error.hasErrorLabel('TransientTransactionError') || error.hasErrorLabel('RetryableWriteError');
}

/**
 * Translates a driver error at the adapter's edge: a duplicate e-mail becomes `EmailAlreadyRegistered`,
 * an outage becomes `ServiceUnavailable('store_unavailable')`, any other driver error a `MongoStoreFailure`.
 * Errors that are not the driver's (domain errors, `UserNotFound`, `InvalidCursor`) are returned unchanged.
 */
export function translateMongoError(error: unknown): unknown {
  if (!(error instanceof MongoError)) return error;
  if (isDuplicateKeyOn(error, 'email')) return new EmailAlreadyRegistered();
  if (isUnavailable(error)) return new ServiceUnavailable('store_unavailable', STORE_RETRY_AFTER_SECONDS);
  return new MongoStoreFailure(error);
}

/** Runs a store operation, translating any driver error it throws. */
export async function translated<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw translateMongoError(error);
  }
}
