import { expect } from 'chai';
import { MongoError, MongoNetworkError, MongoNetworkTimeoutError, MongoServerError } from 'mongodb';
import { InvalidCursor, ServiceUnavailable, UserNotFound } from '../../../src/application/errors.js';
import { EmailAlreadyRegistered } from '../../../src/domain/domain-error.js';
import { MongoStoreFailure, isDuplicateKeyOn, translateMongoError } from '../../../src/infrastructure/mongo/mongo-errors.js';

const duplicateKey = (keyPattern: Record<string, number>, index: string) =>
  new MongoServerError({
    message: `E11000 duplicate key error collection: accounts.users index: ${index} dup key: { ${Object.keys(keyPattern)[0]}: "ada@example.com" }`,
    code: 11000,
    codeName: 'DuplicateKey',
    keyPattern,
    keyValue: { [Object.keys(keyPattern)[0] ?? '']: 'ada@example.com' },
  });

describe('MongoDB error translation (real driver error classes, no server)', () => {
  it('turns a duplicate key on the e-mail index into EmailAlreadyRegistered', () => {
    expect(translateMongoError(duplicateKey({ email: 1 }, 'email_unique'))).to.be.instanceOf(EmailAlreadyRegistered);
  });

  it('does not take a duplicate key on another index for a taken e-mail', () => {
    const translated = translateMongoError(duplicateKey({ eventId: 1 }, 'eventId_unique'));
    expect(translated).to.be.instanceOf(MongoStoreFailure).and.not.be.instanceOf(EmailAlreadyRegistered);
    expect(isDuplicateKeyOn(duplicateKey({ _id: 1 }, '_id_'), '_id')).to.equal(true);
    expect(isDuplicateKeyOn(duplicateKey({ _id: 1 }, '_id_'), 'email')).to.equal(false);
  });

  it('recognises the e-mail index from the message when the server sends no keyPattern', () => {
    const legacy = new MongoServerError({ message: 'E11000 duplicate key error collection: accounts.users index: email_unique dup key: { email: "a@b.co" }', code: 11000 });
    expect(translateMongoError(legacy)).to.be.instanceOf(EmailAlreadyRegistered);
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
    for (const error of [new UserNotFound('u1'), new InvalidCursor(), new EmailAlreadyRegistered(), new TypeError('bug')]) {
      expect(translateMongoError(error)).to.equal(error);
    }
  });
});
