import { randomBytes, randomUUID } from 'node:crypto';
import { type IncomingMessage, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import { aSignUpBody } from '../support/builders.js';
import { killHard, spawnService } from '../support/child-service.js';
import { http, postJson } from '../support/http-client.js';
import { startTestService, tempDir } from '../support/test-service.js';
import { mailedTexts } from '../support/verify-by-mail.js';

const SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

interface Delivery {
  readonly id: string;
  readonly type: string;
  readonly data: Record<string, unknown>;
  readonly at: number;
}

/** A receiver on a local port: verifies every delivery with the standardwebhooks package, answers `answer()` (200 by default). */
async function startReceiver(port = 0) {
  const verifier = new Webhook(SECRET);
  const deliveries: Delivery[] = [];
  const refused: string[] = [];
  let answer: (id: string) => number = () => 200;
  const server: Server = createServer((request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = { 'webhook-id': String(request.headers['webhook-id']), 'webhook-timestamp': String(request.headers['webhook-timestamp']), 'webhook-signature': String(request.headers['webhook-signature']) };
      const verified = verifier.verify(body, headers) as { type: string; data: Record<string, unknown> };
      const status = answer(headers['webhook-id']);
      if (status === 200) deliveries.push({ id: headers['webhook-id'], type: verified.type, data: verified.data, at: Date.now() });
      else refused.push(headers['webhook-id']);
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    port: (server.address() as AddressInfo).port,
    deliveries,
    refused,
    answerWith: (next: (id: string) => number) => (answer = next),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Waits up to `ms` for `done`, polling. */
async function until(done: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await sleep(50);
  }
}

describe('HTTP: signed webhooks from the event log (Standard Webhooks, issue 54)', function () {
  this.timeout(60_000);
  const env = (url: string, extra: Record<string, string> = {}) => ({ WEBHOOK_URL: url, WEBHOOK_SECRET: SECRET, WEBHOOK_POLL_INTERVAL_MS: '200', RATE_LIMIT_MAX: '10000', ...extra });

  it('delivers each account event once, verified, in order; a sign-out reaches the receiver within 5 s', async () => {
    const receiver = await startReceiver();
    const service = await startTestService(env(receiver.url));
    try {
      await sleep(400);
      const up = await postJson(service.url, '/auth/sign-up', aSignUpBody({ email: `hooked-${randomUUID()}@example.com` }));
      await until(() => receiver.deliveries.length >= 1, 5_000, 'user.created');
      const signedOutAt = Date.now();
      expect((await postJson(service.url, '/auth/sign-out', {}, bearer(up.body.data.accesstoken))).status).to.equal(204);
      await until(() => receiver.deliveries.some((delivery) => delivery.type === 'session.revoked'), 5_000, 'session.revoked');
      const revoked = receiver.deliveries.find((delivery) => delivery.type === 'session.revoked');
      expect((revoked?.at ?? Infinity) - signedOutAt).to.be.below(5_000);
      expect(receiver.deliveries.map((delivery) => delivery.type)).to.deep.equal(['user.created', 'session.revoked']);
      expect(receiver.deliveries[0]?.data).to.deep.equal({ userId: up.body.data.user.id });
      expect(new Set(receiver.deliveries.map((delivery) => delivery.id)).size).to.equal(2);
    } finally {
      await service.dispose();
      await receiver.close();
    }
  });

  it('sends an event again with the same webhook-id after a 500, counts it as retried, and dead-letters after WEBHOOK_MAX_ATTEMPTS', async () => {
    const receiver = await startReceiver();
    const service = await startTestService(env(receiver.url, { WEBHOOK_MAX_ATTEMPTS: '2' }));
    try {
      await sleep(400);
      let first = true;
      receiver.answerWith(() => (first ? ((first = false), 500) : 200));
      await postJson(service.url, '/auth/sign-up', aSignUpBody({ email: `retried-${randomUUID()}@example.com` }));
      await until(() => receiver.deliveries.length >= 1, 8_000, 'the retry');
      expect(receiver.refused).to.deep.equal([receiver.deliveries[0]?.id]);
      receiver.answerWith(() => 500);
      await postJson(service.url, '/auth/sign-up', aSignUpBody({ email: `dead-${randomUUID()}@example.com` }));
      const metric = async (outcome: string) => Number(new RegExp(`account_webhook_deliveries_total\\{outcome="${outcome}"\\} (\\d+)`).exec((await http(service.url, '/metrics', { method: 'GET' })).text)?.[1] ?? 0);
      const deadline = Date.now() + 10_000;
      while ((await metric('dead_lettered')) < 1 && Date.now() < deadline) await sleep(200);
      expect(await metric('dead_lettered')).to.equal(1);
      expect(await metric('delivered')).to.equal(1);
      expect(await metric('retried')).to.be.at.least(2);
    } finally {
      await service.dispose();
      await receiver.close();
    }
  });

  it('a dead receiver (never answering) does not slow mail: the verification mail leaves within 3 s', async () => {
    const sockets: import('node:net').Socket[] = [];
    const blackhole = createServer();
    blackhole.on('connection', (socket) => sockets.push(socket));
    await new Promise<void>((resolve) => blackhole.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(blackhole.address() as AddressInfo).port}/hooks`;
    const service = await startTestService(env(url, { WEBHOOK_TIMEOUT_MS: '20000', MAIL_POLL_INTERVAL_MS: '200' }));
    try {
      await sleep(400);
      const email = `mailed-${randomUUID()}@example.com`;
      const started = Date.now();
      await postJson(service.url, '/auth/sign-up', aSignUpBody({ email }));
      await mailedTexts({ url: service.url, dataDir: service.dataDir }, email, 'Confirm your e-mail address', 1);
      expect(Date.now() - started).to.be.below(3_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await service.dispose();
      await new Promise<void>((resolve) => blackhole.close(() => resolve()));
    }
  });

  it('loses nothing to kill -9 between the commit and the delivery: the next start delivers it', async function () {
    this.timeout(90_000);
    const receiver = await startReceiver();
    const port = receiver.port;
    const dataDir = tempDir('webhooks-kill');
    const first = await spawnService({ DATA_DIR: dataDir, ...env(receiver.url) });
    await sleep(800);
    await receiver.close();
    const up = await postJson(first.url, '/auth/sign-up', aSignUpBody({ email: `killed-${randomUUID()}@example.com` }));
    expect(up.status).to.equal(201);
    await killHard(first.process);
    const again = await startReceiver(port);
    const second = await spawnService({ DATA_DIR: dataDir, ...env(again.url) });
    try {
      await until(() => again.deliveries.some((delivery) => delivery.data['userId'] === up.body.data.user.id), 15_000, 'the delivery after the restart');
    } finally {
      await killHard(second.process);
      await again.close();
    }
  });
});
