import { expect } from 'chai';
import { aSignUpBody } from '../support/builders.js';
import { http, postJson } from '../support/http-client.js';
import { sampleValue } from '../support/prometheus-text.js';
import { type TestService, startTestService } from '../support/test-service.js';

const scrape = async (service: TestService) => {
  const res = await http(service.url, '/metrics', { method: 'GET' });
  expect(res.status).to.equal(200);
  expect(res.headers['content-type']).to.match(/^text\/plain; version=0\.0\.4/);
  return res.text;
};

describe('HTTP: /metrics (Prometheus)', () => {
  describe('outcome counters, request durations and argon2 timings', () => {
    let service: TestService;
    before(async () => (service = await startTestService()));
    after(async () => service.dispose());

    it('serves default process metrics', async () => {
      const text = await scrape(service);
      expect(sampleValue(text, 'process_cpu_user_seconds_total')).to.be.a('number');
      expect(text).to.match(/^nodejs_eventloop_lag_seconds /m);
    });

    it('publishes the size of the embedded store and the free space beside it, the size growing with writes', async () => {
      const before = sampleValue(await scrape(service), 'account_store_size_bytes');
      expect(before).to.be.a('number').greaterThan(0);
      expect(sampleValue(await scrape(service), 'account_store_free_disk_bytes')).to.be.a('number').greaterThan(0);
      for (let i = 0; i < 30; i += 1) await postJson(service.url, '/auth/sign-up', aSignUpBody({ email: `size${i}@example.com` }));
      expect(sampleValue(await scrape(service), 'account_store_size_bytes')).to.be.greaterThan(before as number);
    });

    it('moves exactly the counter of each sign-up and sign-in outcome', async () => {
      const email = 'metrics@example.com';
      const before = await scrape(service);
      const statuses = [
        (await postJson(service.url, '/auth/sign-up', aSignUpBody({ email }))).status,
        (await postJson(service.url, '/auth/sign-up', aSignUpBody({ email }))).status,
        (await postJson(service.url, '/auth/sign-up', aSignUpBody({ email: 'nope' }))).status,
        (await postJson(service.url, '/auth/sign-in', { email, password: 'analytical engine 1843' })).status,
        (await postJson(service.url, '/auth/sign-in', { email, password: 'wrong password' })).status,
        (await postJson(service.url, '/auth/sign-in', { email: 'unknown@example.com', password: 'wrong password' })).status,
        (await postJson(service.url, '/auth/sign-in', {})).status,
      ];
      expect(statuses).to.deep.equal([201, 409, 400, 201, 401, 401, 400]);
      const after = await scrape(service);
      const moved = (name: string, outcome: string) =>
        (sampleValue(after, name, { outcome }) ?? NaN) - (sampleValue(before, name, { outcome }) ?? NaN);

      expect(['success', 'duplicate', 'invalid_input', 'invalid_credentials', 'shed'].map((o) => moved('account_sign_up_total', o))).to.deep.equal([1, 1, 1, 0, 0]);
      expect(['success', 'duplicate', 'invalid_input', 'invalid_credentials', 'shed'].map((o) => moved('account_sign_in_total', o))).to.deep.equal([1, 0, 1, 2, 0]);
      expect(sampleValue(after, 'account_sign_in_total', { outcome: 'throttled' })).to.equal(0);
    });

    it('labels request durations by route pattern, method and status, never by raw URL', async () => {
      await http(service.url, '/auth/sign-in?probe=1', { body: '{}', headers: { 'content-type': 'application/json' } });
      await http(service.url, '/no/such/path-12345', { method: 'GET' });
      const text = await scrape(service);
      expect(sampleValue(text, 'http_request_duration_seconds_count', { route: '/auth/sign-in', method: 'POST', status: '400' })).to.be.greaterThan(0);
      expect(sampleValue(text, 'http_request_duration_seconds_count', { route: 'unmatched', method: 'GET', status: '404' })).to.be.greaterThan(0);
      expect(text).to.not.include('path-12345');
      expect(text).to.not.include('probe=1');
    });

    it('times argon2 work per operation and exposes the hash queue', async () => {
      const before = await scrape(service);
      await postJson(service.url, '/auth/sign-up', aSignUpBody({ email: 'timed@example.com' }));
      await postJson(service.url, '/auth/sign-in', { email: 'timed@example.com', password: 'not it at all' });
      await postJson(service.url, '/auth/sign-in', { email: 'nobody@example.com', password: 'not it at all' });
      const after = await scrape(service);
      for (const operation of ['hash', 'verify', 'verify_dummy']) {
        const count = (text: string) => sampleValue(text, 'account_password_hash_duration_seconds_count', { operation }) ?? 0;
        expect(count(after) - count(before), operation).to.equal(1);
        expect(sampleValue(after, 'account_password_hash_duration_seconds_sum', { operation })).to.be.greaterThan(0);
      }
      expect(sampleValue(after, 'account_hash_queue_depth')).to.equal(0);
      expect(sampleValue(after, 'account_hash_in_flight')).to.equal(0);
    });
  });

  describe('load shedding', () => {
    let service: TestService;
    before(async () => (service = await startTestService({ HASH_CONCURRENCY: '1', HASH_QUEUE_MAX: '0' })));
    after(async () => service.dispose());

    it('counts shed sign-ups and sign-ins (503) in the outcome counters and the hash shed counter', async () => {
      const signUps = await Promise.all(Array.from({ length: 30 }, (_, i) => postJson(service.url, '/auth/sign-up', aSignUpBody({ email: `burst${i}@example.com` }))));
      const signIns = await Promise.all(Array.from({ length: 30 }, (_, i) => postJson(service.url, '/auth/sign-in', { email: `burst${i}@example.com`, password: 'analytical engine 1843' })));
      const count = (responses: Array<{ status: number }>, status: number) => responses.filter((res) => res.status === status).length;
      expect(count(signUps, 503), 'some sign-ups shed').to.be.greaterThan(0);
      expect(count(signIns, 503), 'some sign-ins shed').to.be.greaterThan(0);

      const text = await scrape(service);
      expect(sampleValue(text, 'account_sign_up_total', { outcome: 'shed' })).to.equal(count(signUps, 503));
      expect(sampleValue(text, 'account_sign_up_total', { outcome: 'success' })).to.equal(count(signUps, 201));
      expect(sampleValue(text, 'account_sign_in_total', { outcome: 'shed' })).to.equal(count(signIns, 503));
      expect(sampleValue(text, 'account_hash_shed_total')).to.equal(count(signUps, 503) + count(signIns, 503));
    });
  });
});
