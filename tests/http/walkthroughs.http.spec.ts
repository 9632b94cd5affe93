import { execFileSync } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { type TestService, startTestService } from '../support/test-service.js';
import { type DevProvider, startDevProvider } from '../../tools/dev-provider.js';
import {
  type WalkthroughBlock,
  brokenCheck,
  describeBlock,
  instrument,
  missingTools,
  parseWalkthroughs,
  problemsOf,
  runWalkthrough,
  splitChecks,
  walkthroughFiles,
} from '../support/walkthroughs.js';

const ROOT = join(import.meta.dirname, '..', '..');
const SAMPLE = join(ROOT, 'tests', 'fixtures', 'walkthrough-sample.md');
const BROKEN_HEADING = 'Broken on purpose';

const blocksOf = (file: string): WalkthroughBlock[] => parseWalkthroughs(readFileSync(file, 'utf8'), file);
const docBlocks = walkthroughFiles(ROOT).flatMap(blocksOf);
const sampleBlocks = blocksOf(SAMPLE);
const inline = (body: string): WalkthroughBlock => parseWalkthroughs(`# Inline\n\n\`\`\`sh walkthrough\n${body}\n\`\`\`\n`, 'inline.md')[0]!;

describe('walk-through convention: parsing', () => {
  it('finds only `sh walkthrough` blocks, with their fence line, heading and promises on file lines', () => {
    const blocks = parseWalkthroughs(
      ['# Top', '```sh', 'curl -s localhost:3000/x   # → 200', '```', '## Walk', '', '```sh walkthrough', 'curl -s localhost:3000/a', '# → 201 .data', 'curl -s localhost:3000/b   # → 204 empty', '```'].join('\n'),
      'doc.md',
    );
    expect(blocks).to.have.length(1);
    expect(blocks[0]).to.include({ file: 'doc.md', line: 7, heading: 'Walk' });
    expect(blocks[0]!.promises.map(({ line, status, checks }) => ({ line, status, checks }))).to.deep.equal([
      { line: 9, status: 201, checks: ['.data'] },
      { line: 10, status: 204, checks: ['empty'] },
    ]);
  });

  it('splits checks at spaces outside quotes and brackets', () => {
    expect(splitChecks('.a .b=="x y" (.c | length == 2) .d[0].e')).to.deep.equal(['.a', '.b=="x y"', '(.c | length == 2)', '.d[0].e']);
  });

  it('refuses a promise without a three-digit status, naming the line', () => {
    expect(() => parseWalkthroughs('```sh walkthrough\ncurl -s localhost:3000/a\n# → ok .data\n```\n', 'doc.md')).to.throw('doc.md:3: a promise starts with a three-digit HTTP status');
  });

  it('instruments promise lines without changing the line count', () => {
    const block = inline('X=$(curl -s localhost:3000/a)   # → 200\ncurl -s localhost:3000/b\n  # → 201 .x');
    const script = instrument(block);
    expect(script.split('\n')).to.have.length(block.lines.length + 1);
    expect(script).to.equal('X=$(curl -s localhost:3000/a); __walkthrough_promise 0 # → 200\ncurl -s localhost:3000/b\n  __walkthrough_promise 1 # → 201 .x\n');
  });
});

describe('HTTP: walk-throughs run by bash (curl, jq) against a started service, each twice in a row', () => {
  let service: TestService;
  let devProvider: DevProvider | undefined;
  let port: number;
  let seed = 0;

  /** Runs a block twice in a row, each run with its own $RANDOM seed; the problems of each run. */
  const twice = async (block: WalkthroughBlock): Promise<string[][]> => {
    const runs: string[][] = [];
    for (const _ of [1, 2]) runs.push(problemsOf(block, await runWalkthrough(block, { port, seed: ++seed, dataDir: service.dataDir })));
    return runs;
  };
  const expectKept = async (block: WalkthroughBlock) => {
    const [first, second] = await twice(block);
    expect(first, `${describeBlock(block, ROOT)}, run 1 of 2:\n${first!.join('\n')}`).to.deep.equal([]);
    expect(second, `${describeBlock(block, ROOT)}, run 2 of 2:\n${second!.join('\n')}`).to.deep.equal([]);
  };

  before(async function () {
    const missing = missingTools();
    if (missing.length > 0) {
      (this.test as unknown as { parent: { skipReason: string } }).parent.skipReason = `needs ${missing.join(' and ')} on PATH (apt-get install -y curl jq; .ci/run installs them)`;
      this.skip();
    }
    // docs/operators.md runs `npm run -s admin`, which builds dist/ when it is stale: built once here, not within a run's time.
    this.timeout(180_000);
    execFileSync(process.execPath, [join(ROOT, 'tools', 'build-if-stale.mjs')], { cwd: ROOT, stdio: 'ignore' });
    // docs/social-sign-in.md walks through a sign-in at the development provider (`npm run dev:provider`).
    devProvider = await startDevProvider({ port: 0, serviceUrl: 'http://localhost:3000' });
    // Its start command also sets CORS_ORIGINS and PUBLIC_APP_URL, for the app's page (its preflight is a promise of
    // the walk-through, and its address the flow's return), as the doc's last `… npm start` line says them.
    const start = /^\s*((?:[A-Z_]+=\S+ )+)npm start$/m.exec(readFileSync(join(ROOT, 'docs', 'social-sign-in.md'), 'utf8'))?.[1] ?? '';
    const appEnv = Object.fromEntries(start.trim().split(/\s+/).map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]).filter(([name]) => name === 'CORS_ORIGINS' || name === 'PUBLIC_APP_URL'));
    service = await startTestService({ RATE_LIMIT_MAX: '100000', ...devProvider.serviceEnv, ...appEnv });
    port = Number(new URL(service.url).port);
  });
  after(async () => {
    await service?.dispose();
    await devProvider?.close();
  });

  describe('README.md and docs/*.md', () => {
    for (const block of docBlocks) {
      it(`${describeBlock(block, ROOT)} keeps its ${block.promises.length} promises`, async function () {
        this.timeout(60_000);
        await expectKept(block);
      });
    }
  });

  describe('the runner, on tests/fixtures/walkthrough-sample.md', () => {
    it('the sample has walk-throughs with promises, and one broken on purpose', () => {
      expect(sampleBlocks.filter((block) => block.heading !== BROKEN_HEADING).length).to.be.at.least(2);
      expect(sampleBlocks.filter((block) => block.heading === BROKEN_HEADING)).to.have.length(1);
      expect(sampleBlocks.every((block) => block.promises.length > 0)).to.equal(true);
    });

    it('checks a body: paths present and not null, `empty`, jq expressions that print true', () => {
      const body = '{"data":{"user":{"email":"a@example.com","emailverified":false,"gone":null}}}';
      expect(brokenCheck('.data.user.emailverified', body)).to.equal(undefined);
      expect(brokenCheck('.data.user.gone', body)).to.equal('.data.user.gone: expected present and not null, got null');
      expect(brokenCheck('.data.user.email=="a@example.com"', body)).to.equal(undefined);
      expect(brokenCheck('.data.user.email=="b@example.com"', body)).to.equal('.data.user.email=="b@example.com": expected true, got false');
      expect(brokenCheck('empty', '')).to.equal(undefined);
      expect(brokenCheck('empty', body)).to.equal('empty: the body is not empty');
      expect(brokenCheck('.data', 'not json')).to.match(/^\.data: expected present and not null, got jq failed: /);
    });


    for (const block of sampleBlocks.filter((candidate) => candidate.heading !== BROKEN_HEADING)) {
      it(`${describeBlock(block, ROOT)} keeps its ${block.promises.length} promises, twice in a row`, async function () {
        this.timeout(60_000);
        await expectKept(block);
      });
    }

    it('reports a broken promise with its file, line, expected and actual status and fields', async function () {
      this.timeout(60_000);
      const broken = sampleBlocks.find((block) => block.heading === BROKEN_HEADING)!;
      const promise = broken.promises[1]!;
      const [first, second] = await twice(broken);
      expect(first).to.deep.equal(second);
      expect(first).to.have.length(1);
      const report = first![0]!;
      expect(report).to.contain(`tests/fixtures/walkthrough-sample.md:${promise.line}: # → 200 .data.user.email`);
      expect(report).to.contain('status: expected 200, got 401');
      expect(report).to.contain('.data.user.email: expected present and not null, got null');
      expect(report).to.contain('"message":"Invalid or missing access token"');
    });

    it('reports a promise the script never reached, and the exit status of a failing command', async function () {
      this.timeout(60_000);
      const block = inline('curl -s localhost:3000/health/live > /dev/null   # → 200\nfalse\ncurl -s localhost:3000/health/live   # → 200');
      const problems = problemsOf(block, await runWalkthrough(block, { port, seed: ++seed }));
      expect(problems).to.have.length(2);
      expect(problems[0]).to.equal('inline.md:6: # → 200\n    never reached');
      expect(problems[1]).to.match(/^the script exited with status 1 /);
    });

    it("runs where data/ is the service's DATA_DIR and node_modules/ the repository's, as in the repository root", async function () {
      this.timeout(60_000);
      const block = inline(`test "$(cd data && pwd -P)" = "${realpathSync(service.dataDir)}"\nnode -e "require('jsonwebtoken')"\ncurl -s localhost:3000/health/live   # → 200`);
      const run = await runWalkthrough(block, { port, seed: ++seed, dataDir: service.dataDir });
      expect(problemsOf(block, run)).to.deep.equal([]);
    });

    it('sends localhost:3000 to the started service only, and records each answer', async function () {
      this.timeout(60_000);
      const block = inline('curl -s http://localhost:3000/health/live   # → 200\ncurl -s -o /dev/null -w \'%{http_code}\' localhost:3000/nowhere   # → 404');
      const run = await runWalkthrough(block, { port, seed: ++seed });
      expect(problemsOf(block, run)).to.deep.equal([]);
      expect(run.reached.map((reached) => reached.answer?.status)).to.deep.equal([200, 404]);
      expect(run.stdout).to.match(/404$/);
    });
  });
});
