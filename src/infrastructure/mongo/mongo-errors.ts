import {
  MongoClientClosedError,
  MongoError,
  MongoErrorLabel,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoOperationTimeoutError,
  MongoServerClosedError,
  MongoServerError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
} from 'mongodb';
import { ServiceUnavailable } from '../../application/errors.js';
import { StoreDeadlineExceeded } from './mongo-deadline.js';

/** How long a client should wait before retrying while MongoDB is unreachable. */
export const STORE_RETRY_AFTER_SECONDS = 5;

/**
 * Server error codes that mean "no primary reachable right now" rather than "this request is wrong": the driver's
 * retryable-read/write set (mongodb 7.9 `error.js`: HostUnreachable 6, HostNotFound 7, NetworkTimeout 89,
 * ShutdownInProgress 91, PrimarySteppedDown 189, ExceededTimeLimit 262, SocketException 9001, NotWritablePrimary 10107,
 * InterruptedAtShutdown 11600, InterruptedDueToReplStateChange 11602, NotPrimaryNoSecondaryOk 13435,
 * NotPrimaryOrSecondary 13436, ReadConcernMajorityNotAvailableYet 134), LegacyNotPrimary 10058,
 * FailedToSatisfyReadPreference 133 (a shard without a primary, through mongos) and WriteConcernFailed /
 * WriteConcernTimeout 64 (no majority acknowledged the write within `wtimeoutMS`).
 */
const UNAVAILABLE_CODES: ReadonlySet<number> = new Set([6, 7, 64, 89, 91, 133, 134, 189, 262, 9001, 10058, 10107, 11600, 11602, 13435, 13436]);

const UNAVAILABLE_CLASSES = [
  MongoNetworkError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
  MongoNotConnectedError,
  MongoClientClosedError,
  MongoServerClosedError,
  MongoOperationTimeoutError,
];

/** Driver errors that are not exported by the package, recognised by their (stable, documented) names. */
const UNAVAILABLE_NAMES: ReadonlySet<string> = new Set(['MongoWaitQueueTimeoutError', 'MongoPoolClosedError']);

const UNAVAILABLE_LABELS = [
  MongoErrorLabel.TransientTransactionError,
  MongoErrorLabel.RetryableWriteError,
  MongoErrorLabel.UnknownTransactionCommitResult,
] as const;

/** A MongoDB failure that is neither a domain outcome nor an outage. Its message names the driver error class only. */
export class MongoStoreFailure extends Error {
  constructor(cause: MongoError) {
    super(`MongoDB operation failed (${describe(cause)})`, { cause });
    this.name = 'MongoStoreFailure';
  }
}

/** The server's code name where it sent one, else its code (write errors carry `code` only), else the class. */
function describe(error: MongoError): string {
  const codeName: unknown = error instanceof MongoServerError ? error.codeName : undefined;
  if (typeof codeName === 'string' && codeName !== '') return codeName;
  if (typeof error.code === 'number' || typeof error.code === 'string') return `${error.name} code ${String(error.code)}`;
  return error.name;
}

/** True when the error means MongoDB cannot be reached or has no writable primary right now. */
export function isUnavailable(error: MongoError): boolean {
  if (UNAVAILABLE_CLASSES.some((type) => error instanceof type)) return true;
  if (UNAVAILABLE_NAMES.has(error.name)) return true;
  if (typeof error.code === 'number' && UNAVAILABLE_CODES.has(error.code)) return true;
  return UNAVAILABLE_LABELS.some((label) => error.hasErrorLabel(label));
}

/**
 * Translates a driver error at the adapter's edge: an outage becomes `ServiceUnavailable('store_unavailable')`, any
 * other driver error a `MongoStoreFailure` (who owns an e-mail is a claim the commit decides, never a driver error).
 * A store deadline that passed (StoreDeadlineExceeded) is an outage too. Errors that are not the driver's
 * (domain errors, `InvalidCursor`) are returned unchanged.
 */
export function translateMongoError(error: unknown): unknown {
  if (error instanceof StoreDeadlineExceeded) return new ServiceUnavailable('store_unavailable', STORE_RETRY_AFTER_SECONDS);
  if (!(error instanceof MongoError)) return error;
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
