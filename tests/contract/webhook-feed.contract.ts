import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { RecordedEvent } from '../../src/application/ports/event-log.port.js';
import { StoreApiKeyRepository } from '../../src/infrastructure/api-keys/store-api-key.repository.js';
import { appendedAs } from '../../src/infrastructure/storage/event-tables.js';
import { StoreWebhookFeed } from '../../src/infrastructure/webhooks/store-webhook-feed.js';
import { aRequestMetadata } from '../support/builders.js';
import type { StorageFactory, StorageUnderTest } from './storage.contract.js';

const event = (type: string, aggregateId: string, at: Date): RecordedEvent =>
  ({ type, aggregateId, occurredAt: at, payload: { email: 'ada@example.com', sessionId: 's1', reason: 'sign_out' }, eventId: randomUUID(), metadata: aRequestMetadata() }) as unknown as RecordedEvent;

/** The webhook feed and the API keys over every store: leases held by one dispatcher at a time, events in log order. */
export function webhookFeedContract(adapter: string, makeStorage: StorageFactory): void {
  describe(`WebhookFeed and ApiKeyRepository contract: ${adapter}`, () => {
    let storage: StorageUnderTest;
    beforeEach(async () => (storage = await makeStorage()));
    afterEach(async () => storage.dispose());

    it('leases a receiver to exactly one of 10 simultaneous dispatchers, and to another once released', async () => {
      const feed = new StoreWebhookFeed(storage.store);
      const receiver = `r-${randomUUID()}`;
      const now = new Date();
      const leases = await Promise.all(Array.from({ length: 10 }, () => feed.lease(receiver, now, 60_000)));
      expect(leases.filter((lease) => lease !== null)).to.have.length(1);
      expect(await feed.lease(receiver, now, 60_000), 'still held').to.equal(null);
      await feed.release(receiver, leases.find((lease) => lease !== null)!);
      expect(await feed.lease(receiver, now, 60_000)).to.not.equal(null);
    });

    it('reads a receiver\'s cursor and lease without taking it: null before it is seen, the lease\'s end while held, 0 once released', async () => {
      const feed = new StoreWebhookFeed(storage.store);
      const receiver = `r-${randomUUID()}`;
      const now = new Date();
      expect(await feed.state(receiver)).to.equal(null);
      const cursor = await feed.lease(receiver, now, 60_000);
      expect(await feed.state(receiver)).to.deep.equal({ cursor, leaseUntil: now.getTime() + 60_000 });
      expect(await feed.lease(receiver, now, 60_000), 'reading took nothing: still held').to.equal(null);
      await feed.release(receiver, { ...cursor!, attempts: 2, nextAttemptAt: 5 });
      expect(await feed.state(receiver)).to.deep.equal({ cursor: { ...cursor, attempts: 2, nextAttemptAt: 5 }, leaseUntil: 0 });
    });

    it('gives the events of webhook types after a position, in log order, settled ones only; none of the others', async () => {
      const feed = new StoreWebhookFeed(storage.store);
      const receiver = `r-${randomUUID()}`;
      const start = await feed.lease(receiver, new Date(Date.now() - 1000), 60_000);
      const user = `u-${randomUUID()}`;
      const now = new Date();
      await storage.events.append([event('UserRegistered', user, now), event('UserSignedIn', user, now), event('SessionRevoked', user, now)]);
      const items = await feed.after(start!.position, new Date(now.getTime() + 1), 10);
      expect(items.map((item) => item.event.type)).to.deep.equal(['UserRegistered', 'SessionRevoked']);
      expect(await feed.after(items[0]!.position, new Date(now.getTime() + 1), 10)).to.have.length(1);
      expect(await feed.after(start!.position, new Date(now.getTime() - 1), 10), 'not settled yet').to.deep.equal([]);
    });

    it("gives a capability's events as its declarations stamped them: a declared webhook with its type and shown fields, no other", async () => {
      const feed = new StoreWebhookFeed(storage.store);
      const receiver = `r-${randomUUID()}`;
      const start = await feed.lease(receiver, new Date(Date.now() - 1000), 60_000);
      const user = `u-${randomUUID()}`;
      const now = new Date();
      const declared = { ThingHappened: { retention: 'keep', webhook: 'thing.happened', shows: ['sessionId'] }, ThingKept: 'keep' } as const;
      // A capability's type named as the core's webhook types are: its declaration decides, not WEBHOOK_TYPES.
      const events = ['ThingKept', 'SessionRevoked', 'ThingHappened'].map((type) => event(type, user, now));
      expect((await storage.store.commit({ events: appendedAs(events, declared) })).status).to.equal('committed');
      const items = await feed.after(start!.position, new Date(now.getTime() + 1), 10);
      expect(items.map((item) => [item.event.type, item.declared])).to.deep.equal([['ThingHappened', { type: 'thing.happened', shows: ['sessionId'] }]]);
      expect(items[0]?.event).to.not.have.property('webhook');
    });

    it('revokes an API key once: of 10 simultaneous revocations exactly one commits', async () => {
      const keys = new StoreApiKeyRepository(storage.store);
      const id = `k-${randomUUID()}`.slice(0, 16);
      await keys.add({ id, name: 'ops', scopes: ['introspect'], secretHash: 'hash', createdAt: new Date(), revokedAt: null }, []);
      const outcomes = await Promise.all(Array.from({ length: 10 }, () => keys.revoke(id, new Date(), [])));
      expect(outcomes.filter(Boolean)).to.have.length(1);
      expect((await keys.findById(id))?.revokedAt).to.be.instanceOf(Date);
    });
  });
}
