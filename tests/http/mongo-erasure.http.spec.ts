import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { expect } from 'chai';
import { BSON, MongoClient } from 'mongodb';
import { aSignUpBody } from '../support/builders.js';
import { encodingsOf } from '../support/erasure-probe.js';
import { http, postJson } from '../support/http-client.js';
import { describeWithMongo, uniqueDbName } from '../support/mongo-target.js';
import { startTestService, tempDir } from '../support/test-service.js';
import { mailedTexts, verifyByMail } from '../support/verify-by-mail.js';

const PASSWORD = 'analytical engine 1843';
const PERSONAL_DATA_KEY = 'a personal data key for the MongoDB erasure test, 32+';

/** `label in <collection>` for each document of each collection of `db` holding a needle in any encoding, as BSON. */
async function holders(client: MongoClient, db: string, needles: Record<string, string>, filter: object = {}, only?: string): Promise<string[]> {
  const found: string[] = [];
  const names = only ? [only] : (await client.db(db).listCollections().toArray()).map((collection) => collection.name);
  for (const name of names) {
    for await (const doc of client.db(db).collection(name).find(filter)) {
      const bytes = Buffer.from(BSON.serialize(doc));
      for (const [label, needle] of Object.entries(needles)) if (encodingsOf(needle).some((form) => bytes.includes(form))) found.push(`${label} in ${db}.${name}`);
    }
  }
  return [...new Set(found)];
}

describeWithMongo('HTTP on MongoDB: erasure, measured (issue 53)', (target) => {
  const dbName = uniqueDbName('erasure');
  let dataDir: string | undefined;

  after(async function () {
    if (dataDir === undefined) return;
    this.timeout(30_000);
    rmSync(dataDir, { recursive: true, force: true });
    const client = await MongoClient.connect(target().uri);
    await client.db(dbName).dropDatabase().finally(() => client.close());
  });

  it('after DELETE /auth/me and `compact`, no document (the oplog included) holds the person; the data key is in no collection', async function () {
    this.timeout(120_000);
    const unique = randomUUID().slice(0, 8);
    const person = { address: `zephyrine.quill-${unique}@erasure.example`, name: 'Zephyrine', lastname: 'Quillfeatherstone', ip: '198.51.100.173', userAgent: `ErasureProbe/7.3 (Plan9; probe-${unique})` };
    const client = { 'user-agent': person.userAgent, 'x-forwarded-for': person.ip };
    const service = await startTestService({ STORAGE: 'mongodb', MONGODB_URI: target().uri, MONGODB_DB: dbName, DATA_DIR: (dataDir = tempDir('mongo-erasure')), PERSONAL_DATA_KEY, TRUST_PROXY: 'true', RATE_LIMIT_MAX: '10000' });
    const mongo = await MongoClient.connect(target().uri);
    try {
      const up = await postJson(service.url, '/auth/sign-up', aSignUpBody({ email: person.address, name: person.name, lastname: person.lastname }), client);
      expect(up.status).to.equal(201);
      await verifyByMail(service, person.address);
      const signedIn = await postJson(service.url, '/auth/sign-in', { email: person.address, password: PASSWORD }, client);
      expect((await postJson(service.url, '/auth/sign-in', { email: person.address, password: 'not the password' }, client)).status).to.equal(401);
      const keyDoc = await mongo.db(dbName).collection<{ _id: string; r: { wrapped: string } }>('kv.data-keys').findOne({ _id: up.body.data.user.id });
      const dataKey = keyDoc?.r.wrapped ?? '';
      expect(dataKey, 'the account has a data key').to.have.length.above(40);
      expect(await holders(mongo, dbName, person), 'personal fields never reach the database in clear').to.deep.equal([]);

      const deleted = await http(service.url, '/auth/me', { method: 'DELETE', body: { currentpassword: PASSWORD }, headers: { authorization: `Bearer ${signedIn.body.data.accesstoken}`, ...client, 'content-type': 'application/json' } });
      expect(deleted.status).to.equal(204);
      await mailedTexts(service, person.address, 'Your account was deleted', 1);
      for (const { name } of await mongo.db(dbName).listCollections().toArray()) await mongo.db(dbName).command({ compact: name, force: true });

      expect(await holders(mongo, dbName, { ...person, dataKey }), 'every collection, after compact').to.deep.equal([]);
      // Each commit is a transaction: its writes are in one `applyOps` entry of the oplog, named by admin.$cmd.
      const ours = { $regex: `^${dbName}\\.` };
      expect(await holders(mongo, 'local', person, { $or: [{ ns: ours }, { 'o.applyOps.ns': ours }] }, 'oplog.rs'), 'the oplog: sealed writes only').to.deep.equal([]);
    } finally {
      await mongo.close();
      await service.close();
    }
  });
});
