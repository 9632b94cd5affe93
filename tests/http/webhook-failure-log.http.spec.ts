import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { aSignUpBody } from '../support/builders.js';
import { postJson } from '../support/http-client.js';
import { captureLogs } from '../support/log-capture.js';
import { startTestService } from '../support/test-service.js';

const SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const PATH_TOKEN = 'path-token-kept-out-of-logs';
const QUERY_TOKEN = 'query-token-kept-out-of-logs';

const listen = async (server: Server): Promise<number> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
};

/** The receiver's id as the logs name it: the first 24 hex digits of the SHA-256 of its URL. */
const idOf = (url: string) => createHash('sha256').update(url).digest('hex').slice(0, 24);

describe('HTTP: a failed webhook delivery is logged with the receiver, why and when next, no secret (issue 63)', function () {
  this.timeout(30_000);

  it('a receiver answering 503 and one where nothing listens: receiver id and origin, event, attempt, error (and status), nextAttemptAt; then the dead letter', async () => {
    const refusing = createServer((_request, response) => response.writeHead(503).end());
    const refusingUrl = `http://127.0.0.1:${await listen(refusing)}/hooks/${PATH_TOKEN}?token=${QUERY_TOKEN}`;
    const gone = createServer();
    const gonePort = await listen(gone);
    await new Promise((resolve) => gone.close(resolve));
    const goneUrl = `http://127.0.0.1:${gonePort}/hooks`;
    const logs = captureLogs('info');
    const service = await startTestService(
      { STORAGE: 'memory', WEBHOOK_URL: `${refusingUrl},${goneUrl}`, WEBHOOK_SECRET: SECRET, WEBHOOK_POLL_INTERVAL_MS: '200', WEBHOOK_MAX_ATTEMPTS: '2' },
      { logger: logs.logger },
    );
    const webhookLines = () => logs.parsed().filter((line) => String(line['msg']).startsWith('webhook '));
    try {
      await sleep(400);
      await postJson(service.url, '/auth/sign-up', aSignUpBody({ email: `logged-${randomUUID()}@example.com` }));
      const deadline = Date.now() + 15_000;
      while (webhookLines().filter((line) => String(line['msg']).startsWith('webhook dead-lettered')).length < 2 && Date.now() < deadline) await sleep(100);

      const lines = webhookLines();
      const of = (url: string, kind: string) => lines.find((line) => line['receiver'] === idOf(url) && String(line['msg']).startsWith(kind));
      const refused = of(refusingUrl, 'webhook delivery failed');
      expect(refused, JSON.stringify(lines)).to.include({ origin: new URL(refusingUrl).origin, attempt: 1, error: 'the receiver answered 503', status: 503 });
      expect(refused?.['eventId']).to.be.a('string');
      const next = Date.parse(String(refused?.['nextAttemptAt']));
      const at = Date.parse(String(refused?.['time']));
      expect(next - at, 'the first backoff: 1 s after the failure').to.be.within(900, 1_500);

      const unanswered = of(goneUrl, 'webhook delivery failed');
      expect(unanswered, JSON.stringify(lines)).to.include({ origin: `http://127.0.0.1:${gonePort}`, attempt: 1, error: `no answer: connect ECONNREFUSED 127.0.0.1:${gonePort}` });
      expect(unanswered).to.not.have.property('status');
      expect(unanswered?.['nextAttemptAt']).to.be.a('string');

      const dead = of(refusingUrl, 'webhook dead-lettered');
      expect(dead, JSON.stringify(lines)).to.include({ attempt: 2, error: 'the receiver answered 503', status: 503, eventId: refused?.['eventId'] });
      expect(dead, 'given up: no next attempt').to.not.have.property('nextAttemptAt');

      const all = logs.lines.join('');
      for (const secret of [PATH_TOKEN, QUERY_TOKEN, SECRET, SECRET.slice('whsec_'.length)]) expect(all).to.not.include(secret);
    } finally {
      await service.dispose();
      await new Promise((resolve) => refusing.close(resolve));
    }
  });
});
