import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { CAPABILITIES } from '../../../src/capabilities/index.js';
import { TABLES } from '../../../src/infrastructure/storage/ownership.js';
import type { Capability } from '../../../src/infrastructure/container/capability.js';
import type { AnyOperation } from '../../../src/interfaces/http/shared/operation.js';

const ROOT = join(import.meta.dirname, '../../..');
const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8');

/** The rows of the capabilities table in docs/architecture.md, each as its cells. */
function documentedRows(): string[][] {
  const doc = read('docs/architecture.md');
  const table = doc.slice(doc.indexOf('<!-- capabilities:begin'), doc.indexOf('<!-- capabilities:end'));
  return table.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| capability') && !line.startsWith('|---')).map((line) => line.split('|').slice(1, -1).map((cell) => cell.trim()));
}

describe('The capabilities, as their manifests declare them (issue 62)', () => {
  it('are the rows of the table in docs/architecture.md: name, folders, tables, routes, owner', () => {
    const rows = documentedRows();
    expect(rows.map(([name]) => name)).to.deep.equal(CAPABILITIES.map((capability) => capability.name));
    for (const capability of CAPABILITIES) {
      const [, folders = '', tables = '', routes = '', owner = ''] = rows.find(([name]) => name === capability.name) ?? [];
      expect(folders, capability.name).to.equal(capability.folders.map((folder) => `\`${folder}\``).join(', '));
      expect(tables, capability.name).to.equal(capability.tables.map((table) => `\`${table.name}\``).join(', '));
      expect(owner, capability.name).to.equal(capability.squad);
      const declared = ((capability as Capability<object, AnyOperation>).operations ?? []).map((operation) => `\`${operation.method} ${operation.path}\``);
      if (declared.length === 0) expect(routes, capability.name).to.match(/^none/);
      else expect(routes, capability.name).to.equal(declared.join(', '));
      const commands = capability.commands.map((command) => command.name);
      for (const command of commands) expect(routes, `${capability.name} names its command ${command}`).to.include(command);
    }
  });

  it('live in their folders, named after them, one per layer; no other layer folder carries a capability name', () => {
    for (const capability of CAPABILITIES) {
      for (const folder of capability.folders) {
        expect(existsSync(join(ROOT, folder)), folder).to.equal(true);
        expect(folder, 'a home is src/<layer>/<name>').to.match(new RegExp(`^src/(domain|application|infrastructure|interfaces/http)/${capability.name}$`));
      }
      const homes = ['domain', 'application', 'infrastructure', 'interfaces/http'].map((layer) => `src/${layer}/${capability.name}`).filter((folder) => existsSync(join(ROOT, folder)));
      expect(homes, `every home of ${capability.name} is declared`).to.deep.equal(capability.folders);
    }
    const manifests = readdirSync(join(ROOT, 'src/capabilities')).filter((file) => file !== 'index.ts').map((file) => file.replace(/\.ts$/, ''));
    expect(manifests.sort(), 'every manifest is in the list').to.deep.equal(CAPABILITIES.map((capability) => capability.name).sort());
  });

  it("keep their tables out of the core's list, and no two capabilities declare one table", () => {
    const declared = CAPABILITIES.flatMap((capability) => capability.tables);
    expect(declared.filter((table) => TABLES.includes(table)).map((table) => table.name)).to.deep.equal([]);
    expect(new Set(declared.map((table) => table.name)).size).to.equal(declared.length);
  });

  it('are owned in CODEOWNERS as their manifests say: the manifest and every folder, by its squad', () => {
    const lines = read('CODEOWNERS').split('\n').filter((line) => line.startsWith('/'));
    const expected = CAPABILITIES.flatMap((capability) => [`/src/capabilities/${capability.name}.ts`, ...capability.folders.map((folder) => `/${folder}/`)].map((path) => `${path} ${capability.squad}`));
    expect(lines.sort()).to.deep.equal(expected.sort());
  });
});

describe("docs/architecture.md's table of what is stored", () => {
  it("names every table of the core's list (TABLES) by its constant", async () => {
    const doc = read('docs/architecture.md');
    const section = doc.slice(doc.indexOf('Everything stored is code over'), doc.indexOf('## Recipe: adding a kind of stored state'));
    const modules = readdirSync(join(ROOT, 'src/infrastructure'), { recursive: true, encoding: 'utf8' }).filter((file) => (file.startsWith('storage/') || file.endsWith('-tables.ts')) && file.endsWith('.ts') && !file.endsWith('.spec.ts'));
    // By the table's name (a module imported dynamically here is another instance than the one imported above).
    const constants = new Map<string, string>();
    const isTable = (value: unknown): value is { readonly name: string } => typeof value === 'object' && value !== null && 'owner' in value && 'indexes' in value && 'name' in value;
    for (const file of modules) {
      const exported = (await import(`../../../src/infrastructure/${file.replace(/\.ts$/, '.js')}`)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(exported)) if (isTable(value)) constants.set(value.name, name);
    }
    const names = TABLES.map((table) => constants.get(table.name) ?? `(no constant for ${table.name})`);
    expect(names.filter((name) => !section.includes(`\`${name}\``))).to.deep.equal([]);
  });
});
