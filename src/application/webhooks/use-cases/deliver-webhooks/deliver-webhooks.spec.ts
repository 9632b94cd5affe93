import { expect } from 'chai';
import { aRequestMetadata, aSignUpCommand } from '../../../../../tests/support/builders.js';
import { inMemoryWorld } from '../../../../../tests/support/in-memory-world.js';
import { verifiedSignUp } from '../../../../../tests/support/verified.js';
import { WEBHOOK_CURSORS } from '../../../../infrastructure/webhooks/webhook-tables.js';

const receiver = { id: 'hooks', url: 'https://hooks.example/in' };
const metadata = aRequestMetadata();

describe('DeliverWebhooksHandler (deliverWebhooks)', () => {
  it('sends what happened since the receiver was first seen, in log order, each event once, naming the account by id only', async () => {
    const world = await inMemoryWorld();
    await world.deliverWebhooks.execute(receiver);
    world.clock.advance(1000);
    const { signedUp, principal } = await verifiedSignUp(world);
    await world.signOut.execute({ principal, scope: 'local', metadata });
    const sender = world.webhookSender;
    expect(await world.deliverWebhooks.execute(receiver)).to.deep.equal({ delivered: 3, retried: 0, deadLettered: 0 });
    expect(sender.sent.map((sent) => sent.message.type)).to.deep.equal(['user.created', 'user.email_verified', 'session.revoked']);
    expect(sender.sent[2]?.message.data).to.deep.equal({ userId: signedUp.user.id, sessionId: principal.sessionId, reason: 'sign_out' });
    expect(JSON.stringify(sender.sent)).not.to.include('ada@example.com').and.not.include('Ada');
    expect(await world.deliverWebhooks.execute(receiver), 'nothing twice').to.deep.equal({ delivered: 0, retried: 0, deadLettered: 0 });
  });

  it('retries a failed event with backoff, the stream waiting behind it, with the same webhook id; gives it up after maxAttempts', async () => {
    const world = await inMemoryWorld();
    await world.deliverWebhooks.execute(receiver);
    world.clock.advance(1000);
    await verifiedSignUp(world);
    const sender = world.webhookSender;
    sender.failing = 1;
    const failedAt = world.clock.now().getTime();
    const registered = world.store.events.find((event) => event.type === 'UserRegistered')?.eventId;
    expect(await world.deliverWebhooks.execute(receiver), 'the failure told, with the next attempt after the first backoff (1 s)').to.deep.equal({
      delivered: 0,
      retried: 1,
      deadLettered: 0,
      failure: { eventId: registered, attempts: 1, error: 'the receiver answered 500', nextAttemptAt: new Date(failedAt + 1000) },
    });
    expect(await world.deliverWebhooks.execute(receiver), 'not before its backoff').to.deep.equal({ delivered: 0, retried: 0, deadLettered: 0 });
    world.clock.advance(1000);
    expect((await world.deliverWebhooks.execute(receiver)).delivered).to.equal(2);
    expect(sender.sent.map((sent) => sent.message.type)).to.deep.equal(['user.created', 'user.email_verified']);

    expect(sender.sent[0]?.message.id, 'the webhook id is the event id, the same on every attempt').to.equal(registered);

    world.clock.advance(1000);
    await verifiedSignUp(world, aSignUpCommand({ email: 'grace@example.com' }));
    sender.failing = 100;
    const outcomes = [];
    for (let i = 0; i < 3; i++) {
      outcomes.push(await world.deliverWebhooks.execute(receiver));
      world.clock.advance(60_000);
    }
    expect(outcomes.map((outcome) => [outcome.retried, outcome.deadLettered])).to.deep.equal([[1, 0], [1, 0], [0, 1]]);
    expect(outcomes.map((outcome) => [outcome.failure?.attempts, outcome.failure?.nextAttemptAt === null])).to.deep.equal([[1, false], [2, false], [3, true]]);
    sender.failing = 0;
    expect((await world.deliverWebhooks.execute(receiver)).delivered, 'the stream goes on after the dead letter').to.be.greaterThan(0);
  });

  it('reads an idle receiver without writing: a run with nothing due leaves its cursor as it was, so a dispatcher that dies idle holds no lease', async () => {
    const world = await inMemoryWorld();
    await world.deliverWebhooks.execute(receiver);
    const version = async () => (await world.tables.get(WEBHOOK_CURSORS, receiver.id))?.version;
    const first = await version();
    for (let i = 0; i < 3; i++) {
      world.clock.advance(1000);
      expect(await world.deliverWebhooks.execute(receiver)).to.deep.equal({ delivered: 0, retried: 0, deadLettered: 0 });
    }
    expect(await version(), 'no write while idle').to.equal(first);
    await verifiedSignUp(world);
    expect((await world.deliverWebhooks.execute(receiver)).delivered).to.equal(2);
    expect(await version()).to.not.equal(first);
  });

  it('starts no send that its lease could not cover: a slow receiver gets the rest on the next run, in order, none twice', async () => {
    const world = await inMemoryWorld();
    await world.deliverWebhooks.execute(receiver);
    world.clock.advance(1000);
    await verifiedSignUp(world);
    await verifiedSignUp(world, aSignUpCommand({ email: 'grace@example.com' }));
    const sender = world.webhookSender;
    sender.onSend = () => world.clock.advance(20_000);
    expect((await world.deliverWebhooks.execute(receiver)).delivered, 'sends at 0, 20 and 40 s of a 60 s lease (5 s each), not at 60 s').to.equal(3);
    expect((await world.deliverWebhooks.execute(receiver)).delivered, 'the lease was released: the next run goes on').to.equal(1);
    expect(sender.sent.map((sent) => sent.message.type)).to.deep.equal(['user.created', 'user.email_verified', 'user.created', 'user.email_verified']);
    expect(new Set(sender.sent.map((sent) => sent.message.id)).size).to.equal(4);
  });
});
