import { expect } from 'chai';
import type { StoreHealth } from '../../src/application/ports/store-health.port.js';
import { ServiceUnavailable } from '../../src/application/errors.js';
import { aSignUpBody } from '../support/builders.js';
import { http, postJson } from '../support/http-client.js';
import { startTestService } from '../support/test-service.js';

/** A store that can be unplugged and plugged back while the service runs. */
class SwitchableStoreHealth implements StoreHealth {
  mode: 'up' | 'down' | 'hanging' = 'up';

  check(): Promise<void> {
    if (this.mode === 'down') return Promise.reject(new ServiceUnavailable('store_unavailable', 5));
    if (this.mode === 'hanging') return new Promise(() => undefined);
    return Promise.resolve();
  }
}

const get = (url: string, path: string) => http(url, path, { method: 'GET' });

describe('HTTP: /health/live and /health/ready', () => {
  it('live and ready answer 200 on a running service over LMDB (a real write)', async () => {
    const service = await startTestService();
    try {
      expect(await get(service.url, '/health/live')).to.include({ status: 200 }).and.have.nested.property('body.status', 'live');
      const ready = await get(service.url, '/health/ready');
      expect(ready.status).to.equal(200);
      expect(ready.body).to.deep.equal({ status: 'ready', ratelimits: 'per-process', checks: { store: 'ok', limits: 'ok' } });
      expect(ready.headers['x-request-id']).to.be.a('string');
    } finally {
      await service.dispose();
    }
  });

  it('ready turns 503 with the reason while the store is unavailable, and back to 200 when it returns; live stays 200', async () => {
    const store = new SwitchableStoreHealth();
    const service = await startTestService({}, { storeHealth: store });
    try {
      store.mode = 'down';
      const down = await get(service.url, '/health/ready');
      expect(down.status).to.equal(503);
      expect(down.headers['retry-after']).to.equal('5');
      expect(down.body).to.deep.equal({ message: 'Service temporarily unavailable', code: 'STORE_UNAVAILABLE', errors: [{ field: null, message: 'store unavailable' }] });
      expect((await get(service.url, '/health/live')).status).to.equal(200);
      store.mode = 'up';
      expect((await get(service.url, '/health/ready')).status).to.equal(200);
    } finally {
      await service.dispose();
    }
  });

  it('ready answers 503 within its timeout when the store check hangs', async () => {
    const store = new SwitchableStoreHealth();
    const service = await startTestService({}, { storeHealth: store, readinessTimeoutMs: 200 });
    try {
      store.mode = 'hanging';
      const res = await get(service.url, '/health/ready');
      expect(res.status).to.equal(503);
      expect(res.body.errors).to.deep.equal([{ field: null, message: 'store unavailable' }]);
    } finally {
      await service.dispose();
    }
  });

  it('ready turns 503 as soon as shutdown begins, while requests are still served during the drain', async () => {
    const service = await startTestService({ SHUTDOWN_DRAIN_MS: '400' });
    try {
      expect((await get(service.url, '/health/ready')).status).to.equal(200);
      const closing = service.close();
      const ready = await get(service.url, '/health/ready');
      expect(ready.status).to.equal(503);
      expect(ready.body).to.deep.equal({ message: 'Service temporarily unavailable', code: 'SHUTTING_DOWN', errors: [{ field: null, message: 'shutting down' }] });
      expect((await get(service.url, '/health/live')).status).to.equal(200);
      expect((await postJson(service.url, '/auth/sign-up', aSignUpBody())).status).to.equal(201);
      await closing;
    } finally {
      await service.dispose();
    }
  });
});
