import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { type IncomingMessage, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import type { RequestMetadata } from '../../src/application/ports/event-log.port.js';
import { CAPABILITIES } from '../../src/capabilities/index.js';
import type { ServiceCapability } from '../../src/main.js';
import { token } from '../../src/application/di-token.js';
import { STORAGE } from '../../src/infrastructure/container/tokens.js';
import type { EventDeclarations } from '../../src/infrastructure/container/capability.js';
import { appendedAs } from '../../src/infrastructure/storage/event-tables.js';
import type { DomainEvent } from '../../src/domain/domain-event.js';
import { defineOperation } from '../../src/interfaces/http/shared/operation.js';
import { aSignUpBody } from '../support/builders.js';
import { http, postJson } from '../support/http-client.js';
import { type TestService, startTestService } from '../support/test-service.js';
import { mailedTexts } from '../support/verify-by-mail.js';

const SECRET = `whsec_${randomBytes(32).toString('base64')}`;

type Payload = { readonly provider: string; readonly email: string; readonly secret: string };
type ThingEvent = DomainEvent<'ThingHappened', Payload> | DomainEvent<'ThingHidden', Payload>;

/** One event declared for every reader (webhook, activity, a notice), one with its retention only (a third, ThingUnknown, is not named). */
const THING_EVENTS: EventDeclarations<ThingEvent> = {
  ThingHappened: {
    retention: 'keep',
    webhook: 'thing.happened',
    shows: ['provider'],
    activity: true,
    notice: (payload, name) => ({ subject: 'A thing happened', text: `Hello ${name ?? 'there'}, ${payload.provider} did a thing.\n`, html: `<p>${payload.provider} did a thing.</p>` }),
  },
  ThingHidden: 'keep',
};

interface ThingUseCases {
  readonly makeThings: { execute(userId: string, meta: RequestMetadata): Promise<void> };
}
const THING_USE_CASES = token<ThingUseCases>('ThingUseCases');

const things: ServiceCapability = {
  name: 'things',
  squad: '@account-service/tests',
  folders: [],
  tables: [],
  events: THING_EVENTS,
  settings: {},
  errors: {},
  bind: (bindPort) =>
    bindPort(THING_USE_CASES, (get) => ({
      makeThings: {
        execute: async (userId, metadata) => {
          const payload: Payload = { provider: 'github', email: 'leak@example.com', secret: 's3cr3t' };
          const events = (['ThingHidden', 'ThingUnknown', 'ThingHappened'] as const).map((type, i) => ({
            type, aggregateId: userId, occurredAt: new Date(Date.now() + i), payload, eventId: randomUUID(), metadata,
          }));
          await get(STORAGE).store.commit({ events: appendedAs(events, THING_EVENTS) });
        },
      },
    })),
  useCases: (get) => get(THING_USE_CASES),
  commands: [],
  operations: [
    defineOperation<Record<string, never>, 'bearer', ThingUseCases>({
      method: 'POST', path: '/auth/things', operationId: 'makeThings', summary: 'Record the things', tag: 'account', auth: 'bearer', hashes: false,
      success: { status: 204, description: 'Recorded' },
      errors: [],
      run: async ({ principal, meta }, { makeThings }) => makeThings.execute(principal.userId, meta),
    }),
  ],
};

interface Delivery {
  readonly type: string;
  readonly data: Record<string, unknown>;
}

async function startReceiver() {
  const verifier = new Webhook(SECRET);
  const deliveries: Delivery[] = [];
  const server: Server = createServer((request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const headers = { 'webhook-id': String(request.headers['webhook-id']), 'webhook-timestamp': String(request.headers['webhook-timestamp']), 'webhook-signature': String(request.headers['webhook-signature']) };
      deliveries.push(verifier.verify(Buffer.concat(chunks).toString('utf8'), headers) as Delivery);
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, deliveries, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe("HTTP: a capability's events do what its manifest declares: webhook, activity, mail notice (issue 62)", function () {
  this.timeout(30_000);
  let service: TestService;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let accessToken = '';
  let userId = '';
  const email = `things-${randomUUID()}@example.com`;
  before(async () => {
    receiver = await startReceiver();
    service = await startTestService(
      { RATE_LIMIT_MAX: '10000', WEBHOOK_URL: receiver.url, WEBHOOK_SECRET: SECRET, WEBHOOK_POLL_INTERVAL_MS: '100' },
      { capabilities: [...CAPABILITIES, things] },
    );
    await sleep(300);
    const up = await postJson(service.url, '/auth/sign-up', aSignUpBody({ email }));
    accessToken = up.body.data.accesstoken as string;
    userId = up.body.data.user.id as string;
    const made = await postJson(service.url, '/auth/things', {}, { authorization: `Bearer ${accessToken}` });
    expect(made.status, made.text).to.equal(204);
  });
  after(async () => {
    await service.dispose();
    await receiver.close();
  });

  it('sends a webhook of the declared type with only the shown fields; the undeclared events send none', async () => {
    const deadline = Date.now() + 10_000;
    while (!receiver.deliveries.some((delivery) => delivery.type === 'thing.happened') && Date.now() < deadline) await sleep(50);
    await sleep(1_500);
    expect(receiver.deliveries.map((delivery) => [delivery.type, delivery.data])).to.deep.equal([
      ['user.created', { userId }],
      ['thing.happened', { userId, provider: 'github' }],
    ]);
  });

  it("mails the notice's content to the account's address, and nothing for the undeclared events", async () => {
    const [text] = await mailedTexts(service, email, 'A thing happened', 1);
    expect(text).to.include('github did a thing.');
    await service.deliverMail();
    const mails = readdirSync(join(service.dataDir, 'mail')).filter((name) => name.endsWith('.eml'));
    expect(mails, 'the verification mail and the notice, no other').to.have.length(2);
  });

  it('shows the declared event in the activity, and not the undeclared ones', async () => {
    const res = await http(service.url, '/auth/me/activity', { method: 'GET', headers: { authorization: `Bearer ${accessToken}` } });
    expect(res.status).to.equal(200);
    const types = (res.body.data.events as { type: string }[]).map((entry) => entry.type);
    expect(types).to.include('thing_happened');
    expect(types).to.include('user_registered');
    expect(types.filter((type) => type.startsWith('thing_'))).to.deep.equal(['thing_happened']);
  });

  it("lists the declared activity type in the OpenAPI document's enum, and not the undeclared ones", async () => {
    const doc = (await http(service.url, '/docs/json', { method: 'GET' })).body;
    const values = doc.components.schemas.ActivityEvent.properties.type.enum as string[];
    expect(values).to.include.members(['thing_happened', 'user_registered']);
    expect(values).not.to.include('thing_hidden');
  });
});
