import type { ClientSession, Filter } from 'mongodb';
import type { RecordedEvent } from '../../application/ports/event-log.port.js';
import { UserNotFound } from '../../application/errors.js';
import type { UserRepository } from '../../application/ports/user-repository.port.js';
import { EmailAlreadyRegistered } from '../../domain/domain-error.js';
import type { Session } from '../../domain/session.js';
import type { User } from '../../domain/user.js';
import { beforeEpoch, fromUserDocument, toSessionDocument, toUserDocument, type UserDocument } from './mongo-documents.js';
import { isDuplicateKeyOn, translateMongoError, translated } from './mongo-errors.js';
import type { MongoStore } from './mongo-store.js';
import { StaleSessions, swapSessionsInTransaction } from './mongo-session.repository.js';

/** The filter for a document still at `version`; documents written before versions existed have none (version 0). */
const atVersion = (version: number): Filter<UserDocument> =>
  version === 0 ? { $or: [{ version: 0 }, { version: { $exists: false } }] } : { version };

export class MongoUserRepository implements UserRepository {
  constructor(private readonly store: MongoStore) {}

  async findByEmail(email: string): Promise<User | null> {
    const doc = await this.store.guarded((signal) => this.store.users.findOne({ email }, { signal }));
    return doc ? fromUserDocument(doc) : null;
  }

  async findById(id: string): Promise<User | null> {
    const doc = await this.store.guarded((signal) => this.store.users.findOne({ _id: id }, { signal }));
    return doc ? fromUserDocument(doc) : null;
  }

  async add(user: User, events: readonly RecordedEvent[], opened?: Session): Promise<void> {
    const doc = toUserDocument(user, 0);
    try {
      await this.store.transaction(async (session) => {
        await this.store.users.insertOne(doc, { session });
        await this.insertOpened(opened, session);
        await this.store.appendEvents(events, session);
      });
    } catch (error) {
      throw isDuplicateKeyOn(error, '_id') ? new EmailAlreadyRegistered() : translateMongoError(error);
    }
  }

  async save(user: User, events: readonly RecordedEvent[], opened?: Session, changed: readonly Session[] = []): Promise<boolean> {
    try {
      return await this.saveOrAbort(user, events, opened, changed);
    } catch (error) {
      if (error instanceof StaleSessions) return false;
      throw error;
    }
  }

  /**
   * The save in one transaction; a session of `changed` that changed meanwhile aborts it with StaleSessions. When the
   * account's session epoch moves on, its sessions of older epochs are deleted in the same transaction: one statement
   * run by the server, whatever their number (the one kept is in `changed`, already carried into the new epoch).
   */
  private saveOrAbort(user: User, events: readonly RecordedEvent[], opened: Session | undefined, changed: readonly Session[]): Promise<boolean> {
    const { _id, ...state } = toUserDocument(user, user.nextVersion);
    return translated(() =>
      this.store.transaction(async (session) => {
        // `commits` changes on every save, so the update is a real write even when the state is unchanged (a sign-in):
        // MongoDB detects write conflicts only between writes, and a transaction that merely read the user could
        // otherwise commit a session next to a password change it never saw.
        const before = await this.store.users.findOneAndUpdate(
          { _id, ...atVersion(user.version) },
          { $set: state, $inc: { commits: 1 } },
          { session, returnDocument: 'before', projection: { sessionEpoch: 1 } },
        );
        if (before === null) {
          if ((await this.store.users.countDocuments({ _id }, { session, limit: 1 })) === 0) throw new UserNotFound(_id);
          return false;
        }
        await swapSessionsInTransaction(this.store, changed, session);
        if (user.sessionEpoch !== (before.sessionEpoch ?? 0)) {
          await this.store.sessions.deleteMany({ userId: _id, ...beforeEpoch(user.sessionEpoch) }, { session });
        }
        await this.insertOpened(opened, session);
        await this.store.appendEvents(events, session);
        return true;
      }),
    );
  }

  private async insertOpened(opened: Session | undefined, session: ClientSession): Promise<void> {
    if (opened) await this.store.sessions.insertOne(toSessionDocument(opened.snapshot(), opened.snapshot().version), { session });
  }
}
