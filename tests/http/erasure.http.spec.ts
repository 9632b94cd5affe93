import { randomUUID } from 'node:crypto';
import { readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect } from 'chai';
import { compactStore } from '../../tools/compact-store.js';
import { LmdbStore } from '../../src/infrastructure/lmdb/lmdb-store.js';
import { LmdbTables } from '../../src/infrastructure/lmdb/lmdb-tables.js';
import { DATA_KEYS } from '../../src/infrastructure/storage/sealing-store.js';
import { aSignUpBody } from '../support/builders.js';
import { http, postJson } from '../support/http-client.js';
import { type TestService, startTestService, tempDir } from '../support/test-service.js';
import { mailedTexts, verifyByMail } from '../support/verify-by-mail.js';
import { encodingsOf } from '../support/erasure-probe.js';

const PASSWORD = 'analytical engine 1843';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Every file under `dir` (but those under `except`), relative to it. */
const filesUnder = (dir: string, except: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => !name.startsWith(except) && statSync(join(dir, name)).isFile());

/** `needle`'s label for each file under `dir` (but `except`) that holds it in any encoding, and the encoding found. */
function holders(dir: string, needles: Record<string, string>, except = '\0'): string[] {
  const found: string[] = [];
  for (const name of filesUnder(dir, except)) {
    const bytes = readFileSync(join(dir, name));
    for (const [label, needle] of Object.entries(needles)) {
      const form = encodingsOf(needle).findIndex((encoded) => bytes.includes(encoded));
      if (form >= 0) found.push(`${label} in ${relative(dir, join(dir, name))} (form ${form})`);
    }
  }
  return found;
}

/** The account's data key as the store keeps it (wrapped), read with the service stopped. */
async function wrappedKeyOf(dataDir: string, userId: string): Promise<string> {
  const store = LmdbStore.open(dataDir);
  try {
    return (await new LmdbTables(store).get(DATA_KEYS, userId))?.value.wrapped ?? '';
  } finally {
    await store.close();
  }
}

describe('HTTP: erasure, measured (issue 53): after DELETE /auth/me and the store\'s compacting copy, no file under DATA_DIR holds the person', function () {
  this.timeout(60_000);
  const unique = randomUUID().slice(0, 8);
  const person = {
    address: `zephyrine.quill-${unique}@erasure.example`,
    newAddress: `zq.moving-${unique}@erasure.example`,
    name: 'Zephyrine',
    lastname: 'Quillfeatherstone',
    ip: '198.51.100.173',
    userAgent: `ErasureProbe/7.3 (Plan9; probe-${unique})`,
  };
  const client = { 'user-agent': person.userAgent, 'x-forwarded-for': person.ip };
  const env = { RATE_LIMIT_MAX: '10000', TRUST_PROXY: 'true', STORAGE: 'lmdb' };
  let dataDir: string;
  let service: TestService | undefined;

  before(() => (dataDir = tempDir('erasure')));
  after(async () => {
    await service?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('LMDB: the address, the new address, the names, the client IP, the user agent and the data key are gone; the notice was mailed', async () => {
    service = await startTestService({ ...env, DATA_DIR: dataDir });
    const up = await postJson(service.url, '/auth/sign-up', aSignUpBody({ email: person.address, name: person.name, lastname: person.lastname }), client);
    expect(up.status).to.equal(201);
    await verifyByMail(service, person.address);
    const signedIn = await postJson(service.url, '/auth/sign-in', { email: person.address, password: PASSWORD }, client);
    expect(signedIn.status).to.equal(201);
    expect((await postJson(service.url, '/auth/sign-in', { email: person.address, password: 'not the password' }, client)).status).to.equal(401);
    const moving = await postJson(service.url, '/auth/email', { newemail: person.newAddress, currentpassword: PASSWORD }, { ...client, ...bearer(signedIn.body.data.accesstoken) });
    expect(moving.status).to.equal(202);
    await mailedTexts(service, person.newAddress, 'Confirm your new e-mail address', 1);
    await service.close();

    const wrapped = await wrappedKeyOf(dataDir, up.body.data.user.id);
    expect(wrapped, 'the account has a data key').to.have.length.above(40);
    const needles = { ...person, dataKey: wrapped };
    const stored = holders(dataDir, needles, 'mail');
    expect(stored, 'in the store while the account lives: its data key only, every personal field sealed').to.deep.equal(stored.filter((found) => found.startsWith('dataKey in accounts.lmdb')));
    expect(stored, 'the grep finds what is there').to.have.length.above(0);

    service = await startTestService({ ...env, DATA_DIR: dataDir });
    const again = await postJson(service.url, '/auth/sign-in', { email: person.address, password: PASSWORD }, client);
    const deleted = await http(service.url, '/auth/me', { method: 'DELETE', body: { currentpassword: PASSWORD }, headers: { ...bearer(again.body.data.accesstoken), ...client, 'content-type': 'application/json' } });
    expect(deleted.status).to.equal(204);
    const [notice] = await mailedTexts(service, person.address, 'Your account was deleted', 1);
    expect(notice).to.include(person.name);
    await service.close();
    service = undefined;

    const { before, after } = await compactStore(dataDir);
    expect(after, 'the compacting copy keeps only the pages in use').to.be.at.most(before);
    expect(holders(dataDir, needles, 'mail'), 'after the deletion and the compacting copy').to.deep.equal([]);
    expect(holders(join(dataDir, 'mail'), { address: person.address }), 'what remains: the mails sent to the address').to.have.length.above(0);

    service = await startTestService({ ...env, DATA_DIR: dataDir });
    expect((await postJson(service.url, '/auth/sign-in', { email: person.address, password: PASSWORD })).status, 'the store opens after its copy').to.equal(401);
    expect((await postJson(service.url, '/auth/sign-up', aSignUpBody({ email: person.address }))).status, 'the address is free').to.equal(201);
  });
});
