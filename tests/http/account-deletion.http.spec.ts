import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { aSignUpBody } from '../support/builders.js';
import { http, postJson } from '../support/http-client.js';
import { type TestService, startTestService } from '../support/test-service.js';

const PASSWORD = 'analytical engine 1843';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('HTTP: DELETE /auth/me erases the account (issue 53)', function () {
  this.timeout(30_000);
  let service: TestService;
  before(async () => {
    service = await startTestService({ RATE_LIMIT_MAX: '10000' });
  });
  after(async () => service.dispose());

  it('with the password: 204, its tokens refused at once, its sign-in refused, its address free for a new sign-up', async () => {
    const email = `leaving-${randomUUID()}@example.com`;
    const up = (await postJson(service.url, '/auth/sign-up', aSignUpBody({ email }))).body.data;
    const second = (await postJson(service.url, '/auth/sign-in', { email, password: PASSWORD })).body.data;
    const wrong = await http(service.url, '/auth/me', { method: 'DELETE', body: { currentpassword: 'not it' }, headers: { ...bearer(up.accesstoken), 'content-type': 'application/json' } });
    expect(wrong.status).to.equal(400);
    const deleted = await http(service.url, '/auth/me', { method: 'DELETE', body: { currentpassword: PASSWORD }, headers: { ...bearer(up.accesstoken), 'content-type': 'application/json' } });
    expect([deleted.status, deleted.text]).to.deep.equal([204, '']);
    for (const token of [up.accesstoken, second.accesstoken]) expect((await http(service.url, '/auth/me', { method: 'GET', headers: bearer(token) })).status).to.equal(401);
    expect((await postJson(service.url, '/auth/refresh', { refreshtoken: second.refreshtoken })).status).to.equal(401);
    expect((await postJson(service.url, '/auth/sign-in', { email, password: PASSWORD })).status).to.equal(401);
    const again = await postJson(service.url, '/auth/sign-up', aSignUpBody({ email }));
    expect(again.status).to.equal(201);
    expect(again.body.data.user.id).to.not.equal(up.user.id);
  });
});
