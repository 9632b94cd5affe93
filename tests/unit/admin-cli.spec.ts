import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { expect } from 'chai';
import { type AnyCommand, COMMANDS, type Parsed, parseCommandLine, runAdmin } from '../../src/admin.js';
import { defineCommand } from '../../src/infrastructure/container/admin-command.js';
import { tempDir } from '../support/test-service.js';

const ROOT = join(import.meta.dirname, '..', '..');
const NOTICE = 'Keep the key now: it is shown this once, and the service keeps only a keyed hash of it.';
const guard = createRequire(import.meta.url)(join(ROOT, 'tools', 'check-node.cjs')) as { refusal(found: string): string | undefined };
const OLD_NODE = '/usr/bin/node';

interface Ran {
  readonly code: number;
  readonly out: string[];
  readonly err: string[];
}

/** `npm run admin -- <args>` in this process on `dataDir`, at the default log level (so that a warning would show). */
async function admin(dataDir: string, args: readonly string[]): Promise<Ran> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAdmin(args, { NODE_ENV: 'test', DATA_DIR: dataDir }, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out, err };
}

/** A declaration like the coming `create-client`'s, to parse every kind of argument and option the manifests may declare. */
const createClient = defineCommand<Record<string, never>>()({
  name: 'create-client',
  summary: 'register a client',
  arguments: [{ name: 'label', description: 'a label', optional: true }],
  options: {
    name: { value: 'NAME', required: true, description: "the client's name" },
    redirectUri: { value: 'URI', repeatable: true, required: true, description: 'where it may send the browser back to' },
    postLogoutRedirectUri: { value: 'URI', description: 'after a sign-out' },
    public: { description: 'holds no secret' },
    grant: { value: 'GRANT', repeatable: true, choices: ['device'], description: 'another grant' },
  },
  run: (_, input) => Promise.resolve({ out: input }),
});
const revoke = defineCommand<Record<string, never>>()({
  name: 'revoke-key',
  summary: 'revoke',
  arguments: [{ name: 'id', description: 'its id' }],
  run: (_, { id }) => Promise.resolve({ out: id }),
});

async function parsed(args: readonly string[], commands: readonly AnyCommand[] = [createClient, revoke]): Promise<{ readonly result: Parsed | number; readonly out: string[]; readonly err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const result = await parseCommandLine(args, { out: (line) => out.push(line), err: (line) => err.push(line) }, commands);
  return { result, out, err };
}

const inputOf = async (args: readonly string[]): Promise<Readonly<Record<string, unknown>>> => {
  const { result, err } = await parsed(args);
  expect(result, err.join('\n')).to.be.an('object');
  return (result as Parsed).input;
};

describe('the admin command line (npm run admin): parsed from the manifests\' declarations', () => {
  let dataDir: string;
  beforeEach(() => (dataDir = tempDir('admin-cli')));
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  for (const args of [['--help'], ['-h'], ['help']]) {
    it(`${args.join(' ')}: the usage of every command on stdout, exit 0, nothing opened`, async () => {
      const ran = await admin(dataDir, args);
      expect([ran.code, ran.err]).to.deep.equal([0, []]);
      const usage = ran.out.join('\n');
      expect(usage).to.match(/^Usage: npm run admin -- /);
      for (const command of COMMANDS) expect(usage).to.contain(`${command.name}`).and.to.contain(command.summary.slice(0, 30));
      expect(usage).to.contain('Exit status: 0 done, 1 refused or failed (one line on stderr), 2 a usage error.');
      expect(readdirSync(dataDir)).to.deep.equal([]);
    });
  }

  for (const args of [['help', 'create-key'], ['create-key', '--help'], ['create-key', '-h']]) {
    it(`${args.join(' ')}: the command's usage and options on stdout, exit 0, no key made`, async () => {
      const ran = await admin(dataDir, args);
      expect([ran.code, ran.err]).to.deep.equal([0, []]);
      const usage = ran.out.join('\n');
      expect(usage).to.contain('Usage: npm run admin -- create-key');
      expect(usage).to.contain('--scopes <SCOPES>').and.to.contain('--name <NAME>');
      expect(readdirSync(dataDir)).to.deep.equal([]);
    });
  }

  const usageErrors: [string, string[], string][] = [
    ['an unknown command', ['bogus'], "error: unknown command 'bogus'"],
    ['no command', [], 'Usage: npm run admin -- '],
    ['help for an unknown command', ['help', 'bogus'], 'Usage: npm run admin -- '],
    ['an unknown option', ['create-key', '--bogus', '1', '--scopes', 'users:read'], "error: unknown option '--bogus'"],
    ['a missing required option', ['create-key', '--name', 'ops'], "error: required option '--scopes <SCOPES>' not specified"],
    ['an option without its value', ['create-key', '--scopes'], "error: option '--scopes <SCOPES>' argument missing"],
    ['an option given twice', ['create-key', '--scopes', 'users:read', '--name', 'a', '--name=b'], 'It is given more than once.'],
    ['a missing argument', ['revoke-key'], "error: missing required argument 'id'"],
    ['an extra argument', ['list-keys', 'all'], "error: too many arguments for 'list-keys'"],
  ];
  for (const [what, args, said] of usageErrors) {
    it(`${what} (${args.join(' ') || 'nothing'}): a usage error on stderr, exit 2, nothing on stdout and the store never opened`, async () => {
      const ran = await admin(dataDir, args);
      expect([ran.code, ran.out]).to.deep.equal([2, []]);
      expect(ran.err.join('\n')).to.contain(said);
      expect(readdirSync(dataDir), 'nothing composed, opened or written').to.deep.equal([]);
    });
  }

  it('--bogus 1 makes no key: list-keys shows none afterwards', async () => {
    expect((await admin(dataDir, ['create-key', '--scopes', 'users:read', '--bogus', '1'])).code).to.equal(2);
    const listed = await admin(dataDir, ['list-keys']);
    expect([listed.code, listed.out, listed.err]).to.deep.equal([0, ['[]'], []]);
  });

  it('create-key --scopes=users:read --name=ops: one line of JSON on stdout, the notice alone on stderr (no warning)', async () => {
    const made = await admin(dataDir, ['create-key', '--scopes=users:read', '--name=ops']);
    expect(made.code).to.equal(0);
    expect(made.out).to.have.length(1);
    const key = JSON.parse(made.out[0]!) as { id: string; name: string; scopes: string[]; key: string; revokedAt: null };
    expect(key).to.include({ name: 'ops', revokedAt: null });
    expect(key.scopes).to.deep.equal(['users:read']);
    expect(key.key).to.match(new RegExp(`^ask_${key.id}\\.`));
    expect(made.err).to.deep.equal([NOTICE]);
  });

  it('create-key --scopes users:write --name ops (values after a space); the name defaults to "unnamed"', async () => {
    const named = await admin(dataDir, ['create-key', '--scopes', 'users:write', '--name', 'ops']);
    const unnamed = await admin(dataDir, ['create-key', '--scopes', 'introspect']);
    expect(JSON.parse(named.out[0]!)).to.include({ name: 'ops' });
    expect(JSON.parse(unnamed.out[0]!)).to.include({ name: 'unnamed' });
  });

  it('revoke-key <id> revokes (stdout {"revoked": id}); list-keys shows it revoked; stderr stays empty', async () => {
    const { id } = JSON.parse((await admin(dataDir, ['create-key', '--scopes', 'introspect'])).out[0]!) as { id: string };
    const revoked = await admin(dataDir, ['revoke-key', id]);
    expect([revoked.code, revoked.out.map((line) => JSON.parse(line) as unknown), revoked.err]).to.deep.equal([0, [{ revoked: id }], []]);
    const listed = await admin(dataDir, ['list-keys']);
    expect([listed.code, listed.err]).to.deep.equal([0, []]);
    const keys = JSON.parse(listed.out[0]!) as { id: string; revokedAt: string | null }[];
    expect(keys.map((key) => key.id)).to.deep.equal([id]);
    expect(keys[0]!.revokedAt).to.be.a('string');
  });

  it('a refusal (an unknown key, an unknown scope): exit 1, one line on stderr, nothing on stdout', async () => {
    const unknownKey = await admin(dataDir, ['revoke-key', 'no-such-key']);
    expect([unknownKey.code, unknownKey.out, unknownKey.err.length]).to.deep.equal([1, [], 1]);
    expect(unknownKey.err[0]).to.match(/^admin revoke-key: /);
    const unknownScope = await admin(dataDir, ['create-key', '--scopes', 'everything']);
    expect([unknownScope.code, unknownScope.out, unknownScope.err.length]).to.deep.equal([1, [], 1]);
    expect(unknownScope.err[0]).to.match(/^admin create-key: /);
  });

  it('a configuration it cannot run with: exit 1, one line on stderr', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runAdmin(['list-keys'], { NODE_ENV: 'test', DATA_DIR: dataDir, STORAGE: 'nowhere' }, { out: (line) => out.push(line), err: (line) => err.push(line) });
    expect([code, out, err.length]).to.deep.equal([1, [], 1]);
    expect(err[0]).to.match(/^admin list-keys: .*STORAGE/);
  });

  it('every declared command: a name, a summary, and no option named like one of its arguments', () => {
    for (const command of COMMANDS) {
      expect(command.name).to.match(/^[a-z]+(-[a-z]+)*$/);
      expect(command.summary).to.not.equal('');
      const names = (command.arguments ?? []).map((argument) => argument.name);
      for (const key of Object.keys(command.options ?? {})) expect(names, `${command.name} --${key}`).to.not.include(key);
    }
  });
});

describe('the admin command line: what a declaration gives run (a create-client like the coming one)', () => {
  it('repeatable options as lists in order, flags as booleans, kebab-case flags under camelCase keys, both value syntaxes', async () => {
    const input = await inputOf(['create-client', 'web', '--name', 'Web', '--redirect-uri', 'https://a.example/cb', '--redirect-uri=https://b.example/cb', '--public', '--post-logout-redirect-uri=https://a.example/']);
    expect(input).to.deep.equal({
      label: 'web',
      name: 'Web',
      redirectUri: ['https://a.example/cb', 'https://b.example/cb'],
      postLogoutRedirectUri: 'https://a.example/',
      public: true,
      grant: [],
    });
  });

  it('what is not given: an optional argument and value undefined, a flag false, a repeatable option []', async () => {
    const input = await inputOf(['create-client', '--redirect-uri', 'https://a.example/cb', '--name', 'Web']);
    expect(input).to.deep.equal({ label: undefined, name: 'Web', redirectUri: ['https://a.example/cb'], postLogoutRedirectUri: undefined, public: false, grant: [] });
  });

  it('choices: a listed value is taken, another is a usage error (exit 2)', async () => {
    expect((await inputOf(['create-client', '--name', 'TV', '--redirect-uri', 'https://a.example/cb', '--grant', 'device']))['grant']).to.deep.equal(['device']);
    const refused = await parsed(['create-client', '--name', 'TV', '--redirect-uri', 'https://a.example/cb', '--grant', 'password']);
    expect(refused.result).to.equal(2);
    expect(refused.err.join('\n')).to.contain('Allowed choices are device.');
  });

  it('a required repeatable option given none: exit 2; the flags show in the usage as declared', async () => {
    const missing = await parsed(['create-client', '--name', 'Web']);
    expect(missing.result).to.equal(2);
    expect(missing.err.join('\n')).to.contain("required option '--redirect-uri <URI>' not specified");
    const help = await parsed(['help', 'create-client']);
    expect([help.result, help.err]).to.deep.equal([0, []]);
    for (const flag of ['[label]', '--name <NAME>', '--redirect-uri <URI>', '(repeatable)', '--post-logout-redirect-uri <URI>', '--public', '--grant <GRANT>']) expect(help.out.join('\n')).to.contain(flag);
  });

  it('an argument that names a command (help) is the argument', async () => {
    expect(await parsed(['revoke-key', 'help'])).to.deep.include({ result: { command: revoke, input: { id: 'help' } } });
  });
});

describe('the admin command line as a program (src/admin.cts, dist/admin.cjs: what npm run admin runs)', () => {
  let dataDir: string;
  beforeEach(() => (dataDir = tempDir('admin-entry')));
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  const entry = (node: string, args: string[]) =>
    spawnSync(node, ['--import', 'tsx', join('src', 'admin.cts'), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 20_000, env: { PATH: process.env['PATH'], NODE_ENV: 'test', DATA_DIR: dataDir } });

  it('stdout holds the JSON alone and stderr nothing (no warning of a generated signing key); exit 0', function () {
    this.timeout(30_000);
    const result = entry(process.execPath, ['list-keys']);
    expect([result.signal, result.status, result.stdout, result.stderr]).to.deep.equal([null, 0, '[]\n', '']);
    expect(existsSync(join(dataDir, 'jwt-signing-key.pem')), 'the key the service will read is kept as before').to.equal(true);
  });

  it('a usage error: exit status 2, stderr only', function () {
    this.timeout(30_000);
    const result = entry(process.execPath, ['create-key', '--scopes', 'introspect', '--bogus', '1']);
    expect([result.signal, result.status, result.stdout]).to.deep.equal([null, 2, '']);
    expect(result.stderr).to.contain("error: unknown option '--bogus'");
  });

  it('a Node older than the floor stops with the one line of start.cjs, exit 1, before it loads argon2', function () {
    this.timeout(30_000);
    const version = existsSync(OLD_NODE) ? spawnSync(OLD_NODE, ['--version'], { encoding: 'utf8' }).stdout.trim() : '';
    const refusal = guard.refusal(version);
    if (refusal === undefined) {
      (this.test as unknown as { skipReason: string }).skipReason = `no Node older than the floor at ${OLD_NODE} (${version || 'none'})`;
      this.skip();
    }
    // Without the check this old Node would die of SIGSEGV loading argon2.
    const result = entry(OLD_NODE, ['list-keys']);
    expect([result.signal, result.status, result.stdout, result.stderr]).to.deep.equal([null, 1, '', `${refusal}\n`]);
    expect(readdirSync(dataDir)).to.deep.equal([]);
  });
});
