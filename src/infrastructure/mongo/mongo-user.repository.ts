import { inject, injectable } from 'inversify';
import type { RecordedEvent } from '../../application/ports/event-log.port.js';
import { UserNotFound } from '../../application/errors.js';
import type { UserRepository } from '../../application/ports/user-repository.port.js';
import { EmailAlreadyRegistered } from '../../domain/domain-error.js';
import type { User } from '../../domain/user.js';
import { fromUserDocument, toUserDocument } from './mongo-documents.js';
import { isDuplicateKeyOn, translateMongoError, translated } from './mongo-errors.js';
import { MongoStore } from './mongo-store.js';

@injectable()
export class MongoUserRepository implements UserRepository {
  constructor(@inject(MongoStore) private readonly store: MongoStore) {}

  async findByEmail(email: string): Promise<User | null> {
    const doc = await this.store.guarded((signal) => this.store.users.findOne({ email }, { signal }));
    return doc ? fromUserDocument(doc) : null;
  }

  async findById(id: string): Promise<User | null> {
    const doc = await this.store.guarded((signal) => this.store.users.findOne({ _id: id }, { signal }));
    return doc ? fromUserDocument(doc) : null;
  }

  async add(user: User, events: readonly RecordedEvent[]): Promise<void> {
    const doc = toUserDocument(user);
    try {
      await this.store.transaction(async (session) => {
        await this.store.users.insertOne(doc, { session });
        await this.store.appendEvents(events, session);
      });
    } catch (error) {
      throw isDuplicateKeyOn(error, '_id') ? new EmailAlreadyRegistered() : translateMongoError(error);
    }
  }

  async save(user: User, events: readonly RecordedEvent[]): Promise<void> {
    const { _id, ...state } = toUserDocument(user);
    await translated(() =>
      this.store.transaction(async (session) => {
        const replaced = await this.store.users.replaceOne({ _id }, state, { session });
        if (replaced.matchedCount === 0) throw new UserNotFound(_id);
        await this.store.appendEvents(events, session);
      }),
    );
  }
}
