import { expect } from 'chai';
import { aSignUpBody } from './builders.js';
import { postJson } from './http-client.js';
import { startTestService } from './test-service.js';

const PASSWORD = 'analytical engine 1843';

/**
 * The cases every HTTP suite of a store shared by instances runs (MongoDB, PostgreSQL): an account across a restart
 * of the service on the same database, and one 201 of 25 simultaneous sign-ups of one address. `env` gives each
 * service its settings (the store, a fresh DATA_DIR), `freshEmail` an address no earlier test used.
 */
export function sharedStoreCases(env: () => Record<string, string>, freshEmail: () => string): void {
  it('an account survives a restart of the service against the same database, and is the same account', async () => {
    const email = freshEmail();
    const first = await startTestService(env());
    const created = await postJson(first.url, '/auth/sign-up', aSignUpBody({ email }));
    expect(created.status).to.equal(201);
    await first.close();

    const second = await startTestService(env());
    try {
      const res = await postJson(second.url, '/auth/sign-in', { email: email.toUpperCase(), password: PASSWORD });
      expect(res.status).to.equal(201);
      expect(res.body.data.user).to.deep.equal(created.body.data.user);
      expect((await postJson(second.url, '/auth/sign-up', aSignUpBody({ email }))).status).to.equal(409);
    } finally {
      await second.close();
    }
  });

  it('of 25 simultaneous sign-ups of one address exactly one is 201, the other 24 are 409', async () => {
    const service = await startTestService(env());
    try {
      const email = freshEmail();
      const statuses = (await Promise.all(Array.from({ length: 25 }, () => postJson(service.url, '/auth/sign-up', aSignUpBody({ email }))))).map((res) => res.status);
      expect(statuses.filter((status) => status === 201)).to.have.length(1);
      expect(statuses.filter((status) => status === 409)).to.have.length(24);
    } finally {
      await service.close();
    }
  });
}
