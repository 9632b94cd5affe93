import { createRequire } from 'node:module';
import { expect } from 'chai';
import {
  MongoClientClosedError,
  type MongoError,
  MongoErrorLabel,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoOperationTimeoutError,
  MongoServerClosedError,
  MongoServerError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
  MongoWriteConcernError,
} from 'mongodb';
import { ServiceUnavailable } from '../../../src/application/errors.js';
import { StoreDeadlineExceeded, withDeadline } from '../../../src/infrastructure/mongo/mongo-deadline.js';
import { MongoStoreFailure, translateMongoError } from '../../../src/infrastructure/mongo/mongo-errors.js';
import { ERROR_TABLE } from '../../../src/interfaces/http/shared/error-table.js';

/**
 * Outage translation, built only from the driver's own classes constructed as the driver constructs them
 * (mongodb 7.9.0 lib/error.js, lib/cmap/errors.js, lib/sdam/server.js, lib/write_concern.js). Server errors
 * are `new MongoServerError(reply)` with the server's reply document ({ ok: 0, errmsg, code, codeName }), as
 * lib/cmap/connection.js builds them; write-concern errors are `new MongoWriteConcernError(reply)` as
 * `throwIfWriteConcernError` builds them.
 */
const require = createRequire(import.meta.url);
const cmapErrors = require('mongodb/lib/cmap/errors.js') as {
  PoolClosedError: new (pool: { address: string }) => MongoError;
  WaitQueueTimeoutError: new (message: string, address: string) => MongoError;
};

const { TopologyDescription } = require('mongodb/lib/sdam/topology_description.js') as {
  TopologyDescription: new (topologyType: string) => ConstructorParameters<typeof MongoServerSelectionError>[1];
};

const serverReply = (code: number, codeName: string, errmsg: string) => new MongoServerError({ ok: 0, errmsg, code, codeName });

const withLabel = <E extends MongoError>(error: E, label: MongoErrorLabel): E => {
  error.addErrorLabel(label);
  return error;
};

/** The reply of a majority write that timed out (MongoDB manual, "Write Concern": wtimeout; server code 64). */
const writeConcernTimeout = () =>
  new MongoWriteConcernError({ ok: 1, writeConcernError: { code: 64, codeName: 'WriteConcernFailed', errmsg: 'waiting for replication timed out', errInfo: { wtimeout: true } } });

const outages: Array<[string, () => MongoError]> = [
  ['HostUnreachable (6)', () => serverReply(6, 'HostUnreachable', 'Connection refused')],
  ['HostNotFound (7)', () => serverReply(7, 'HostNotFound', 'Could not find host matching read preference')],
  ['NetworkTimeout (89)', () => serverReply(89, 'NetworkTimeout', 'operation exceeded time limit')],
  ['ShutdownInProgress (91)', () => serverReply(91, 'ShutdownInProgress', 'The server is in quiesce mode and will shut down')],
  ['FailedToSatisfyReadPreference (133), a shard without a primary through mongos', () => serverReply(133, 'FailedToSatisfyReadPreference', 'Could not find host matching read preference { mode: "primary" } for set shard0')],
  ['ReadConcernMajorityNotAvailableYet (134)', () => serverReply(134, 'ReadConcernMajorityNotAvailableYet', 'Read concern majority reads are currently not possible.')],
  ['PrimarySteppedDown (189)', () => serverReply(189, 'PrimarySteppedDown', 'Primary stepped down while waiting for replication')],
  ['ExceededTimeLimit (262)', () => serverReply(262, 'ExceededTimeLimit', 'operation exceeded time limit')],
  ['SocketException (9001)', () => serverReply(9001, 'SocketException', 'socket exception [SEND_ERROR]')],
  ['LegacyNotPrimary (10058)', () => serverReply(10058, 'LegacyNotPrimary', 'not master')],
  ['NotWritablePrimary (10107)', () => serverReply(10107, 'NotWritablePrimary', 'not primary')],
  ['InterruptedAtShutdown (11600)', () => serverReply(11600, 'InterruptedAtShutdown', 'interrupted at shutdown')],
  ['InterruptedDueToReplStateChange (11602)', () => serverReply(11602, 'InterruptedDueToReplStateChange', 'operation was interrupted')],
  ['NotPrimaryNoSecondaryOk (13435)', () => serverReply(13435, 'NotPrimaryNoSecondaryOk', 'not master and slaveOk=false')],
  ['NotPrimaryOrSecondary (13436)', () => serverReply(13436, 'NotPrimaryOrSecondary', 'node is recovering')],
  ['a majority write that timed out (WriteConcernFailed 64)', writeConcernTimeout],
  [
    'a commit whose result is unknown (64 labelled UnknownTransactionCommitResult, as commitTransaction labels it)',
    () => withLabel(writeConcernTimeout(), MongoErrorLabel.UnknownTransactionCommitResult),
  ],
  ['a transient transaction error', () => new MongoServerError({ ok: 0, errmsg: 'WriteConflict', code: 112, codeName: 'WriteConflict', errorLabels: ['TransientTransactionError'] })],
  ['a server error the server labelled RetryableWriteError', () => new MongoServerError({ ok: 0, errmsg: 'x', code: 999_999, codeName: 'Made', errorLabels: ['RetryableWriteError'] })],
  ['a network error', () => new MongoNetworkError('connection 3 to 10.0.0.5:27017 closed')],
  ['server selection that found no primary', () => new MongoServerSelectionError('Server selection timed out after 5000 ms', new TopologyDescription('ReplicaSetNoPrimary'))],
  ['a closed topology', () => new MongoTopologyClosedError()],
  ['a client that is not connected', () => new MongoNotConnectedError('Client must be connected before running operations')],
  ['a closed client', () => new MongoClientClosedError()],
  ['an operation on a server closed while it ran (MongoServerClosedError, sdam/server.js)', () => new MongoServerClosedError()],
  ['a checkout from a closed pool (MongoPoolClosedError, cmap/connection_pool.js)', () => new cmapErrors.PoolClosedError({ address: '10.0.0.5:27017' })],
  ['a wait-queue timeout (MongoWaitQueueTimeoutError)', () => new cmapErrors.WaitQueueTimeoutError('Timed out while checking out a connection from connection pool', '10.0.0.5:27017')],
  ['a driver operation timeout (MongoOperationTimeoutError)', () => new MongoOperationTimeoutError('Timed out during withTransaction')],
];

describe('MongoDB outages answer 503 (driver error classes as the driver builds them, no server)', () => {
  for (const [label, make] of outages) {
    it(`${label} -> ServiceUnavailable('store_unavailable', 5), a 503 with Retry-After`, () => {
      const translated = translateMongoError(make());
      expect(translated).to.be.instanceOf(ServiceUnavailable);
      expect(translated).to.deep.include({ reason: 'store_unavailable', retryAfterSeconds: 5 });
      const row = ERROR_TABLE[(translated as ServiceUnavailable).code];
      expect(row.status).to.equal(503);
      expect(row.headers).to.include('retry-after');
    });
  }

  it('a store deadline that passed is a 503 too', () => {
    expect(translateMongoError(new StoreDeadlineExceeded(5000))).to.be.instanceOf(ServiceUnavailable);
  });

  const failures: Array<[string, MongoError, string]> = [
    ['a validation failure', serverReply(121, 'DocumentValidationFailure', 'Document failed validation'), 'DocumentValidationFailure'],
    ['an authorisation failure', serverReply(13, 'Unauthorized', 'not authorized on accounts to execute command'), 'Unauthorized'],
    ['an unsatisfiable write concern (100), not an outage', new MongoWriteConcernError({ ok: 1, writeConcernError: { code: 100, codeName: 'UnsatisfiableWriteConcern', errmsg: 'Not enough data-bearing nodes' } }), 'UnsatisfiableWriteConcern'],
    ['a write error, which carries a code but no codeName (as insertOne throws writeErrors[0])', new MongoServerError({ index: 0, code: 2, errmsg: 'bad value' }), 'MongoServerError code 2'],
  ];
  for (const [label, error, kind] of failures) {
    it(`${label} -> a 500 (MongoStoreFailure naming "${kind}", no driver text)`, () => {
      const translated = translateMongoError(error);
      expect(translated).to.be.instanceOf(MongoStoreFailure).and.not.be.instanceOf(ServiceUnavailable);
      expect((translated as Error).message).to.equal(`MongoDB operation failed (${kind})`);
    });
  }
});

describe('the store deadline (no server)', () => {
  it('rejects with StoreDeadlineExceeded at the deadline, aborting the signal, even when the operation never settles', async () => {
    let seen: AbortSignal | undefined;
    const started = Date.now();
    const error = await withDeadline(50, (signal) => {
      seen = signal;
      return new Promise<never>(() => undefined);
    }).then(
      () => null,
      (reason: unknown) => reason,
    );
    expect(error).to.be.instanceOf(StoreDeadlineExceeded);
    expect(Date.now() - started).to.be.within(40, 1000);
    expect(seen?.aborted).to.equal(true);
    expect(seen?.reason).to.equal(error);
  });

  it('returns the result, and leaves the signal alone, when the operation finishes in time', async () => {
    let seen: AbortSignal | undefined;
    const result = await withDeadline(1000, (signal) => {
      seen = signal;
      return Promise.resolve(42);
    });
    expect(result).to.equal(42);
    expect(seen?.aborted).to.equal(false);
  });
});
