import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { SERVICE_OPERATIONS } from '../support/service-operations.js';
import { ERROR_TABLE } from '../../src/interfaces/http/shared/error-table.js';
import { aSignUpBody } from '../support/builders.js';
import { apiKeyFor } from '../support/api-keys.js';
import { http, postJson } from '../support/http-client.js';
import { type TestService, startTestService } from '../support/test-service.js';

const PASSWORD = 'analytical engine 1843';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('HTTP: the admin API, per scope (issue 54)', function () {
  this.timeout(30_000);
  let service: TestService;
  const keys: Record<string, string> = {};
  before(async () => {
    service = await startTestService({ RATE_LIMIT_MAX: '10000' });
    for (const scope of ['users:read', 'users:write', 'introspect']) keys[scope] = (await apiKeyFor(service.dataDir, scope)).key;
  });
  after(async () => service.dispose());

  const admin = (method: string, path: string, scope: string | null) => http(service.url, path, { method, headers: scope === null ? {} : bearer(keys[scope] ?? '') });
  const account = async () => {
    const email = `managed-${randomUUID()}@example.com`;
    const up = await postJson(service.url, '/auth/sign-up', aSignUpBody({ email }));
    return { email, id: up.body.data.user.id as string, token: up.body.data.accesstoken as string };
  };

  it('users:read finds an account by address prefix and shows it; it may change nothing, and another scope reads nothing', async () => {
    const { email, id } = await account();
    const found = await admin('GET', `/admin/users?query=${encodeURIComponent(email.slice(0, 20).toUpperCase())}`, 'users:read');
    expect(found.status).to.equal(200);
    expect(found.body.data.users.map((user: { id: string }) => user.id)).to.include(id);
    const details = await admin('GET', `/admin/users/${id}`, 'users:read');
    expect(details.body.data.user).to.deep.include({ id, email, disabled: false });
    expect(details.body.data.sessions).to.have.length(1);
    expect(details.text).not.to.include('argon2');
    expect((await admin('POST', `/admin/users/${id}/disable`, 'users:read')).status).to.equal(403);
    expect((await admin('GET', `/admin/users/${id}`, 'introspect')).status).to.equal(403);
    expect((await admin('GET', `/admin/users/${id}`, null)).status).to.equal(401);
  });

  it('a users:read key is refused on every users:write route (403 INSUFFICIENT_SCOPE) and changes nothing', async () => {
    const { id, token } = await account();
    const writes = SERVICE_OPERATIONS.filter((operation) => operation.path.startsWith('/admin/') && operation.method !== 'GET');
    expect(writes.map((operation) => `${operation.method} ${operation.path}`)).to.have.length.of.at.least(5);
    for (const operation of writes) {
      const res = await admin(operation.method, operation.path.replace(':id', id), 'users:read');
      expect([res.status, res.body], `${operation.method} ${operation.path}`).to.deep.equal([403, { message: ERROR_TABLE.INSUFFICIENT_SCOPE.message, code: 'INSUFFICIENT_SCOPE', errors: [{ field: null, message: 'this API key lacks the scope users:write' }] }]);
    }
    const details = await admin('GET', `/admin/users/${id}`, 'users:read');
    expect([details.status, details.body.data.user.disabled, details.body.data.sessions.length]).to.deep.equal([200, false, 1]);
    expect((await http(service.url, '/auth/me', { method: 'GET', headers: bearer(token) })).status).to.equal(200);
  });

  it('users:write disables (tokens 401 at once; the right password answers exactly as a wrong one), enables, signs out everywhere, deletes', async () => {
    const { email, id, token } = await account();
    const disabled = await admin('POST', `/admin/users/${id}/disable`, 'users:write');
    expect([disabled.status, disabled.body.message, disabled.body.data.user.disabled]).to.deep.equal([200, 'User disabled', true]);
    expect((await http(service.url, '/auth/me', { method: 'GET', headers: bearer(token) })).status).to.equal(401);
    const right = await postJson(service.url, '/auth/sign-in', { email, password: PASSWORD });
    const wrong = await postJson(service.url, '/auth/sign-in', { email, password: 'not the password at all' });
    expect([right.status, right.text]).to.deep.equal([wrong.status, wrong.text]);
    expect(right.status).to.equal(401);
    expect((await admin('POST', `/admin/users/${id}/enable`, 'users:write')).body.data.user.disabled).to.equal(false);
    const again = await postJson(service.url, '/auth/sign-in', { email, password: PASSWORD });
    expect(again.status).to.equal(201);
    expect((await admin('POST', `/admin/users/${id}/sign-out`, 'users:write')).status).to.equal(204);
    expect((await http(service.url, '/auth/me', { method: 'GET', headers: bearer(again.body.data.accesstoken) })).status).to.equal(401);
    expect((await postJson(service.url, '/auth/refresh', { refreshtoken: again.body.data.refreshtoken })).status).to.equal(401);
    expect((await admin('DELETE', `/admin/users/${id}`, 'users:write')).status).to.equal(204);
    expect((await admin('GET', `/admin/users/${id}`, 'users:read')).status).to.equal(404);
    expect((await postJson(service.url, '/auth/sign-up', aSignUpBody({ email }))).status, 'the address is free').to.equal(201);
  });

  it("shows the owner an operator's changes as by an administrator, never the operator's address or user agent (issue 61)", async () => {
    const { id, email } = await account();
    const operator = { ...bearer(keys['users:write'] ?? ''), 'user-agent': 'operator-console/7.1 (ops-vpn)' };
    for (const action of ['disable', 'enable', 'sign-out']) expect((await http(service.url, `/admin/users/${id}/${action}`, { method: 'POST', headers: operator })).status).to.be.oneOf([200, 204]);
    const owner = await postJson(service.url, '/auth/sign-in', { email, password: PASSWORD }, { 'user-agent': 'owner-browser/1.0' });
    const activity = await http(service.url, '/auth/me/activity', { method: 'GET', headers: bearer(owner.body.data.accesstoken) });
    const byOperator = (activity.body.data.events as Record<string, unknown>[]).filter((entry) => entry['by'] === 'administrator');
    expect(byOperator.map((entry) => [entry['type'], entry['reason'], entry['clientip'], entry['useragent']])).to.deep.equal([
      ['sessions_ended', 'admin', null, null],
      ['account_enabled', undefined, null, null],
      ['sessions_ended', 'admin', null, null],
      ['account_disabled', undefined, null, null],
    ]);
    expect(activity.text).not.to.include('operator-console');
  });
});
