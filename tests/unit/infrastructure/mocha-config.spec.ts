import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { tempDir } from '../../support/test-service.js';

describe('.mocharc.json', () => {
  it('forbids a stray `it.only`: the run fails instead of printing a green summary of one test', function () {
    this.timeout(30_000);
    const dir = tempDir('forbid-only');
    try {
      const spec = join(dir, 'stray.spec.ts');
      writeFileSync(spec, "describe('stray', () => {\n  it.only('passes', () => undefined);\n  it('never runs', () => {\n    throw new Error('skipped by the only');\n  });\n});\n");
      const run = spawnSync(process.execPath, ['node_modules/mocha/bin/mocha.js', '--config', '.mocharc.json', spec], { encoding: 'utf8' });
      expect(run.status, run.stdout + run.stderr).to.not.equal(0);
      expect(run.stdout + run.stderr).to.match(/only/i).and.not.match(/Cannot find|ERR_MODULE_NOT_FOUND/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
