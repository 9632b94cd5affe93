import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { expect } from 'chai';
import { NODE_FLOOR, nodeFloorRefusal } from '../../../src/infrastructure/config/node-floor.cjs';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const GUARD = join(ROOT, 'tools', 'check-node.cjs');
const guard = createRequire(import.meta.url)(GUARD) as { FLOOR: string; LINE_FLOORS: Record<number, string>; refusal(found: string): string | undefined };
/** A Node older than the floor when the machine has one (Debian's and these machines' own /usr/bin/node are). */
const OLD_NODE = '/usr/bin/node';

const oldNode = (): { path: string; version: string } | string => {
  if (!existsSync(OLD_NODE)) return `no ${OLD_NODE} on this machine`;
  const version = spawnSync(OLD_NODE, ['--version'], { encoding: 'utf8' }).stdout.trim();
  return guard.refusal(version) === undefined ? `${OLD_NODE} is ${version}, not older than ${guard.FLOOR}` : { path: OLD_NODE, version };
};

const run = (node: string, args: string[]) => {
  const started = process.hrtime.bigint();
  const result = spawnSync(node, args, { cwd: ROOT, encoding: 'utf8', timeout: 10_000 });
  return { ...result, ms: Number(process.hrtime.bigint() - started) / 1e6 };
};

const LINE = /^account-service needs Node\.js >= (\d+\.\d+\.\d+) \(found (v[\d.]+)\): run it through npm after "npm ci" \(which installs the Node\.js the project is tested on into node_modules\), or install Node\.js 22 LTS$/;

describe('Node.js floor (tools/check-node.cjs before every npm script that loads argon2 or lmdb; src/start.cts)', () => {
  it('is stated once: package.json engines, the guard and the entry point agree (22.14.0; 23.6.0 on the 23 line)', () => {
    const engines = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    expect(guard.FLOOR).to.equal('22.14.0');
    expect(NODE_FLOOR).to.equal(guard.FLOOR);
    expect(engines).to.equal(`^${guard.FLOOR} || >=${guard.LINE_FLOORS[23]}`);
  });

  it('refuses the same versions with the same one line in the guard and in the entry point, and lets the rest through', () => {
    for (const found of ['v12.22.9', 'v18.19.0', 'v20.20.2', 'v22.12.0', 'v22.13.1', 'v23.0.0', 'v23.5.0']) {
      const line = guard.refusal(found);
      expect(line, found).to.match(LINE);
      expect(LINE.exec(line!)?.slice(1), found).to.deep.equal(['22.14.0', found]);
      expect(nodeFloorRefusal(found), found).to.equal(line);
    }
    for (const found of ['v22.14.0', 'v22.23.3', 'v23.6.0', 'v24.0.0', 'v25.1.0', process.version]) {
      expect(guard.refusal(found), found).to.equal(undefined);
      expect(nodeFloorRefusal(found), found).to.equal(undefined);
    }
  });

  it('passes silently on this Node', () => {
    const result = run(process.execPath, [GUARD]);
    expect([result.status, result.stdout, result.stderr]).to.deep.equal([0, '', '']);
  });

  it('stops an old Node in under a second: exit status 1, one line on stderr naming the floor and the version found', function () {
    const old = oldNode();
    if (typeof old === 'string') {
      (this.test as unknown as { skipReason: string }).skipReason = `no Node older than ${guard.FLOOR} to run the guard with: ${old}`;
      this.skip();
    }
    const result = run(old.path, [GUARD]);
    expect(result.status).to.equal(1);
    expect(result.stdout).to.equal('');
    expect(result.stderr.endsWith('\n')).to.be.true;
    const lines = result.stderr.slice(0, -1).split('\n');
    expect(lines).to.have.length(1);
    expect(LINE.exec(lines[0]!)?.slice(1)).to.deep.equal([guard.FLOOR, old.version]);
    expect(result.ms).to.be.below(1000);
  });

  it('stops an old Node running the entry point (src/start.cts) with the same line, before it loads argon2', function () {
    const old = oldNode();
    if (typeof old === 'string') {
      (this.test as unknown as { skipReason: string }).skipReason = `no Node older than ${guard.FLOOR} to start the entry point with: ${old}`;
      this.skip();
    }
    // tsx compiles src/start.cts as dist/start.cjs would be; without the refusal this old Node would die of SIGSEGV.
    const result = run(old.path, ['--import', 'tsx', join('src', 'start.cts')]);
    expect([result.signal, result.status, result.stdout]).to.deep.equal([null, 1, '']);
    expect(result.stderr).to.equal(`${guard.refusal(old.version)}\n`);
  });
});
