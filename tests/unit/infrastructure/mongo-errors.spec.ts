import { expect } from 'chai';
import { MongoError, MongoNetworkError, MongoNetworkTimeoutError, MongoServerError } from 'mongodb';
import { InvalidCursor, ServiceUnavailable } from '../../../src/application/errors.js';
import { EmailAlreadyRegistered } from '../../../src/domain/domain-error.js';
import { MongoStoreFailure, translateMongoError } from '../../../src/infrastructure/mongo/mongo-errors.js';

const duplicateKey = (keyPattern: Record<string, number>, index: string) =>
  new MongoServerError({
    message: `E11000 duplicate key error collection: accounts.users index: ${index} dup key: { ${Object.keys(keyPattern)[0]}: "ada@example.com" }`,
    code: 11000,
    codeName: 'DuplicateKey',
    keyPattern,
    keyValue: { [Object.keys(keyPattern)[0] ?? '']: 'ada@example.com' },
  });

describe('MongoDB error translation (real driver error classes, no server)', () => {
  it('turns a duplicate key into a store failure, never a domain outcome: the commit decides who owns an e-mail (a claim)', () => {
    for (const error of [duplicateKey({ email: 1 }, 'email_unique'), duplicateKey({ _id: 1 }, '_id_')]) {
      expect(translateMongoError(error)).to.be.instanceOf(MongoStoreFailure).and.not.be.instanceOf(EmailAlreadyRegistered);
    }
  });

  const outages: Array<[string, MongoError]> = [
    ['a network error', new MongoNetworkError('connection 3 to 10.0.0.5:27017 closed')],
    ['a network timeout', new MongoNetworkTimeoutError('connection timed out')],
    ['NotWritablePrimary during a failover', new MongoServerError({ message: 'not primary', code: 10107, codeName: 'NotWritablePrimary' })],
    ['a transient transaction error the driver gave up retrying', new MongoServerError({ message: 'WriteConflict', code: 112, errorLabels: ['TransientTransactionError'] })],
  ];
  for (const [label, error] of outages) {
    it(`turns ${label} into ServiceUnavailable('store_unavailable', 5)`, () => {
      const translated = translateMongoError(error);
      expect(translated).to.be.instanceOf(ServiceUnavailable);
      expect(translated).to.deep.include({ reason: 'store_unavailable', retryAfterSeconds: 5 });
    });
  }

  it('turns any other driver error into a MongoStoreFailure that carries no driver text in its message', () => {
    const error = new MongoServerError({ message: 'Document failed validation: {"passwordHash":"$argon2id$..."}', code: 121, codeName: 'DocumentValidationFailure' });
    const translated = translateMongoError(error);
    expect(translated).to.be.instanceOf(MongoStoreFailure).and.not.be.instanceOf(MongoError);
    expect((translated as Error).message).to.equal('MongoDB operation failed (DocumentValidationFailure)');
    expect((translated as Error).cause).to.equal(error);
  });

  it('passes through errors that are not the driver\'s unchanged', () => {
    for (const error of [new InvalidCursor(), new EmailAlreadyRegistered(), new TypeError('bug')]) {
      expect(translateMongoError(error)).to.equal(error);
    }
  });
});
