import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mixed, number, object, string } from 'yup';
import { CONFIG_DESCRIPTIONS } from '../../../src/infrastructure/config/config-descriptions.js';
import { CONFIG_SCHEMA } from '../../../src/infrastructure/config/config.js';
import { ACTIVITY_REASONS, ACTIVITY_TYPES } from '../../../src/interfaces/http/shared/activity-types.js';
import { AUTH_OUTCOMES, ERROR_TABLE } from '../../../src/interfaces/http/shared/error-table.js';
import { renderActivityTypes, renderErrorCodes, renderMetricOutcomes } from '../../../tools/docs/code-tables.js';
import { type ConfigSource, humane, renderConfigTable, renderConfigurationPage } from '../../../tools/docs/config-table.js';
import { CONFIGURATION_PAGE, regionPages } from '../../../tools/docs/pages.js';
import { REGION_GENERATORS, RegionError, fillRegions, findRegions, staleRegions } from '../../../tools/docs/regions.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const read = (page: string): string => readFileSync(join(root, page), 'utf8');
const RUN = 'run `npm run docs:generate` and commit the result';

/** The row of one variable in a rendered table, split into its cells. */
const rowOf = (rendered: string, variable: string): string[] | undefined =>
  rendered
    .split('\n')
    .find((line) => line.startsWith(`| \`${variable}\` |`))
    ?.split(' | ')
    .map((part) => part.replace(/^\| | \|$/g, ''));

const source = (schema: ConfigSource['schema'], descriptions: ConfigSource['descriptions']): ConfigSource => ({
  schema,
  descriptions,
  sections: ['Only'],
});

describe('Generated docs: the pages say what the code says', () => {
  describe('the checked-in pages', () => {
    it(`${CONFIGURATION_PAGE} is exactly what the generator renders from the configuration schema`, () => {
      const page = existsSync(join(root, CONFIGURATION_PAGE)) ? read(CONFIGURATION_PAGE) : '(missing)';
      expect(page === renderConfigurationPage(), `${CONFIGURATION_PAGE} differs from the configuration schema: ${RUN}`).to.equal(true);
    });

    it('every generated region of README.md and docs/*.md holds what its generator renders now', () => {
      const stale = regionPages(root).flatMap((page) => staleRegions(read(page), page).map((name) => `${page}: ${name}`));
      expect(stale, `stale generated regions: ${RUN}`).to.deep.equal([]);
    });

    it('every variable of the configuration schema has a description, and every description a variable', () => {
      expect(Object.keys(CONFIG_DESCRIPTIONS).sort(), 'describe each variable in src/infrastructure/config/config-descriptions.ts, then run `npm run docs:generate`').to.deep.equal(
        Object.keys(CONFIG_SCHEMA.fields).sort(),
      );
    });
  });

  describe('the configuration table', () => {
    const table = renderConfigTable();

    it('lists every variable of the schema exactly once', () => {
      for (const variable of Object.keys(CONFIG_SCHEMA.fields)) {
        expect(table.split('\n').filter((line) => line.startsWith(`| \`${variable}\` |`)), variable).to.have.length(1);
      }
    });

    it('reads defaults and bounds from the schema, and says what a default computed at start is rather than this machine\'s value', () => {
      expect(rowOf(table, 'MONGODB_TIMEOUT_MS')?.slice(1, 3)).to.deep.equal(['`5000` (5 s)', 'integer, 100 to 25000']);
      expect(rowOf(table, 'LOG_FORMAT')?.slice(1, 3)).to.deep.equal(['`auto`', '`auto`, `json`, `pretty`']);
      expect(rowOf(table, 'HASH_CONCURRENCY')?.[1]).to.equal(CONFIG_DESCRIPTIONS.HASH_CONCURRENCY.whenUnset);
    });

    it('fails, naming the variable, when a schema variable has no description or a description no variable', () => {
      const schema = object({ DESCRIBED: number().default(1), NEW_SETTING: number().default(2) });
      expect(() => renderConfigTable(source(schema, { DESCRIBED: { section: 'Only', meaning: 'm' } }))).to.throw(/NEW_SETTING has no description/);
      expect(() =>
        renderConfigTable(source(object({ DESCRIBED: number() }), { DESCRIBED: { section: 'Only', meaning: 'm' }, GONE: { section: 'Only', meaning: 'm' } })),
      ).to.throw(/GONE is described but not in the schema/);
    });

    it('renders ranges, lists of values, text rules and defaults from any schema', () => {
      const doc = { section: 'Only', meaning: 'what it does | with a pipe' };
      const schema = object({
        COUNT: number().integer().min(2).max(9).default(4),
        FLOOR: number().integer().min(0).default(0),
        KIND: mixed<'a' | 'b'>().oneOf(['a', 'b']).optional(),
        URL: string().trim().matches(/^x:/, 'URL must start with x:').optional(),
        SECRET: string().trim().min(32).optional(),
        WAIT_SECONDS: number().integer().default(7200),
      });
      const rendered = renderConfigTable(source(schema, { COUNT: doc, FLOOR: doc, KIND: doc, URL: doc, SECRET: doc, WAIT_SECONDS: doc }));
      expect(rowOf(rendered, 'COUNT')).to.deep.equal(['`COUNT`', '`4`', 'integer, 2 to 9', 'what it does \\| with a pipe']);
      expect(rowOf(rendered, 'FLOOR')?.[2]).to.equal('integer, at least 0');
      expect(rowOf(rendered, 'KIND')?.slice(1, 3)).to.deep.equal(['—', '`a`, `b`']);
      expect(rowOf(rendered, 'URL')?.[2]).to.equal('must start with x:');
      expect(rowOf(rendered, 'SECRET')?.[2]).to.equal('at least 32 characters');
      expect(rowOf(rendered, 'WAIT_SECONDS')?.[1]).to.equal('`7200` (2 h)');
    });

    it('refuses a computed default without whenUnset, and a whenUnset that contradicts a fixed default', () => {
      expect(() => renderConfigTable(source(object({ CPUS: number().default(() => 3) }), { CPUS: { section: 'Only', meaning: 'm' } }))).to.throw(
        /CPUS: its default is computed at start/,
      );
      expect(() =>
        renderConfigTable(source(object({ FIXED: number().default(3) }), { FIXED: { section: 'Only', meaning: 'm', whenUnset: 'something else' } })),
      ).to.throw(/FIXED: whenUnset contradicts the schema's default/);
    });

    it('gives a readable size or duration only where the unit divides the value', () => {
      expect(humane('X_SECONDS', 1_209_600)).to.equal('14 days');
      expect(humane('X_MS', 300_000)).to.equal('5 min');
      expect(humane('X_BYTES', 64 * 1024 * 1024)).to.equal('64 MiB');
      expect(humane('X_MS', 1500)).to.equal(null);
      expect(humane('X_COUNT', 3600)).to.equal(null);
    });
  });

  describe('regions', () => {
    const generators = { greeting: () => 'hello', farewell: () => '| a |\n|---|' };

    it('replaces what lies between the markers and keeps the markers and everything around them', () => {
      const page = 'intro\n<!-- generated:greeting -->\nstale text\n<!-- /generated:greeting -->\nmiddle\n<!-- generated:farewell -->\n<!-- /generated:farewell -->\nend\n';
      const filled = fillRegions(page, 'page.md', generators);
      expect(filled).to.equal('intro\n<!-- generated:greeting -->\nhello\n<!-- /generated:greeting -->\nmiddle\n<!-- generated:farewell -->\n| a |\n|---|\n<!-- /generated:farewell -->\nend\n');
      expect(staleRegions(page, 'page.md', generators)).to.deep.equal(['greeting', 'farewell']);
      expect(fillRegions(filled, 'page.md', generators)).to.equal(filled);
      expect(staleRegions(filled, 'page.md', generators)).to.deep.equal([]);
    });

    it('reports a region with an unknown name, with its file and line', () => {
      const page = 'one\ntwo\n<!-- generated:no-such-table -->\n<!-- /generated:no-such-table -->\n';
      expect(() => fillRegions(page, 'docs/x.md', generators)).to.throw(RegionError, /docs\/x\.md:3: unknown region "no-such-table"/);
      expect(() => staleRegions(page, 'docs/x.md', generators)).to.throw(RegionError, /unknown region/);
    });

    it('reports a region never closed, a stray closing marker and a region opened inside another', () => {
      expect(() => findRegions('<!-- generated:greeting -->\ntext\n', 'p.md', generators)).to.throw(/p\.md:1: region "greeting" is never closed/);
      expect(() => findRegions('text\n<!-- /generated:greeting -->\n', 'p.md', generators)).to.throw(/p\.md:2: closing marker of "greeting"/);
      expect(() =>
        findRegions('<!-- generated:greeting -->\n<!-- generated:farewell -->\n<!-- /generated:farewell -->\n<!-- /generated:greeting -->\n', 'p.md', generators),
      ).to.throw(/opens inside region "greeting"/);
    });

    it('reports a misspelled marker line instead of skipping its region silently', () => {
      expect(() => findRegions('text\n<!--generated:greeting-->\nx\n<!-- /generated:greeting -->\n', 'p.md', generators)).to.throw(/p\.md:2: not a marker as written/);
    });

    it('reads markers on a page saved with CRLF line endings', () => {
      const page = 'a\r\n<!-- generated:greeting -->\r\nold\r\n<!-- /generated:greeting -->\r\n';
      expect(fillRegions(page, 'p.md', generators)).to.equal('a\r\n<!-- generated:greeting -->\r\nhello\n<!-- /generated:greeting -->\r\n');
    });

    it('ignores a marker quoted inside a sentence or a fenced code block, so a page may show the syntax', () => {
      const page = 'Write `<!-- generated:anything -->` on a line of its own:\n\n```html\n<!-- generated:anything -->\n<!--generated:anything-->\n```\n';
      expect(findRegions(page, 'p.md', generators)).to.deep.equal([]);
      expect(fillRegions(page, 'p.md', generators)).to.equal(page);
    });

    it('offers exactly the documented region names', () => {
      expect(Object.keys(REGION_GENERATORS).sort()).to.deep.equal(['activity-types', 'config-table', 'error-codes', 'field-issue-codes', 'metric-outcomes']);
      expect(REGION_GENERATORS['config-table']?.()).to.equal(renderConfigTable());
    });
  });

  describe('the tables of the code', () => {
    it('error-codes: one row per code of the error table, with its status and message', () => {
      const rendered = renderErrorCodes();
      for (const [code, row] of Object.entries(ERROR_TABLE)) {
        expect(rowOf(rendered, code), code).to.deep.equal([`\`${code}\``, String(row.status), row.message]);
      }
      const statuses = rendered.split('\n').slice(2).map((line) => Number(line.split(' | ')[1]));
      expect(statuses, 'ordered by status').to.deep.equal([...statuses].sort((a, b) => a - b));
    });

    it('metric-outcomes: every outcome the metrics declare, with the error codes that produce it', () => {
      const rendered = renderMetricOutcomes();
      expect(rendered.split('\n').slice(2)).to.have.length(AUTH_OUTCOMES.length);
      expect(rowOf(rendered, 'shed')?.[1]).to.equal('503 `OVERLOADED`, 503 `SHUTTING_DOWN`');
      expect(rowOf(rendered, 'success')?.[1]).to.equal('any answer below 400');
    });

    it('activity-types: every type and reason GET /auth/me/activity can answer', () => {
      const rendered = renderActivityTypes();
      for (const value of [...ACTIVITY_TYPES, ...ACTIVITY_REASONS]) expect(rendered).to.include(`\`${value}\``);
    });
  });
});
