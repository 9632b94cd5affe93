import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../../src/infrastructure/config/config.js';

const URI = 'mongodb://db1:27017,db2:27017/?replicaSet=rs0';

describe('Configuration: choosing the store', () => {
  it('uses the embedded LMDB store when nothing is set', () => {
    expect(loadConfig({}).storage.kind).to.equal('lmdb');
  });

  it('uses MongoDB whenever MONGODB_URI is set, in database "accounts" by default', () => {
    const { storage } = loadConfig({ MONGODB_URI: URI });
    expect(storage.kind).to.equal('mongodb');
    expect(storage.mongodb).to.deep.equal({ uri: URI, dbName: 'accounts', timeoutMs: 5000 });
  });

  it('uses MongoDB for STORAGE=mongodb, in the database MONGODB_DB names', () => {
    const { storage } = loadConfig({ STORAGE: 'mongodb', MONGODB_URI: URI, MONGODB_DB: 'accounts_eu' });
    expect(storage.kind).to.equal('mongodb');
    expect(storage.mongodb.dbName).to.equal('accounts_eu');
  });

  it('lets an explicit STORAGE win over MONGODB_URI', () => {
    expect(loadConfig({ STORAGE: 'lmdb', MONGODB_URI: URI }).storage.kind).to.equal('lmdb');
    expect(loadConfig({ STORAGE: 'memory', MONGODB_URI: URI }).storage.kind).to.equal('memory');
  });

  it('treats an empty MONGODB_URI as unset', () => {
    expect(loadConfig({ MONGODB_URI: '' }).storage.kind).to.equal('lmdb');
  });

  it('refuses STORAGE=mongodb without MONGODB_URI, naming the variable', () => {
    expect(() => loadConfig({ STORAGE: 'mongodb' })).to.throw(ConfigError, /MONGODB_URI/);
  });

  it('refuses a malformed MONGODB_URI or MONGODB_DB, naming the variable but not echoing the value', () => {
    expect(() => loadConfig({ MONGODB_URI: 'postgres://user:hunter2@db/x' })).to.throw(ConfigError, /MONGODB_URI/).with.property('message').that.does.not.include('hunter2');
    expect(() => loadConfig({ MONGODB_URI: URI, MONGODB_DB: 'a.b' })).to.throw(ConfigError, /MONGODB_DB/);
    expect(() => loadConfig({ STORAGE: 'cassandra' })).to.throw(ConfigError, /STORAGE/);
  });

  it('uses PostgreSQL whenever DATABASE_URL is set (MONGODB_URI, set too, wins), and refuses STORAGE=postgres without it', () => {
    const url = 'postgres://accounts:hunter2@db:5432/accounts';
    expect(loadConfig({ DATABASE_URL: url }).storage).to.include({ kind: 'postgres' }).and.have.deep.property('postgres', { url, timeoutMs: 5_000, poolSize: 10 });
    expect(loadConfig({ DATABASE_URL: url, MONGODB_URI: URI }).storage.kind).to.equal('mongodb');
    expect(loadConfig({ STORAGE: 'lmdb', DATABASE_URL: url }).storage.kind).to.equal('lmdb');
    expect(() => loadConfig({ STORAGE: 'postgres' })).to.throw(ConfigError, /DATABASE_URL is required/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://user:hunter2@db/x' })).to.throw(ConfigError, /DATABASE_URL/).with.property('message').that.does.not.include('hunter2');
  });

  it('reads the PostgreSQL deadline and pool size, each within its bounds', () => {
    const url = 'postgres://accounts@db:5432/accounts';
    expect(loadConfig({ DATABASE_URL: url, DATABASE_TIMEOUT_MS: '2500', DATABASE_POOL_SIZE: '40' }).storage.postgres).to.deep.equal({ url, timeoutMs: 2_500, poolSize: 40 });
    expect(() => loadConfig({ DATABASE_URL: url, DATABASE_TIMEOUT_MS: '30000' })).to.throw(ConfigError, /DATABASE_TIMEOUT_MS must be at most 25000/);
    expect(() => loadConfig({ DATABASE_URL: url, DATABASE_POOL_SIZE: '0' })).to.throw(ConfigError, /DATABASE_POOL_SIZE/);
  });
});
