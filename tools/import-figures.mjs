#!/usr/bin/env node
// Import figures of our own code, from dependency-cruiser's graph (type-only imports count, as in the layer rules).
//
//   node tools/import-figures.mjs folder src/interfaces/http
//       files in the folder, imports between them, and its depth: the longest chain of imports inside it, in files
//   node tools/import-figures.mjs closure [--values] <file> [<file> ...]
//       our files (under src/) that the given files import, directly or not, the given ones included; with --values,
//       only imports that load code at run time (type-only imports left out): the files a request can run through
//
// The README's Architecture figures come from these two commands, run on a commit before and after a change.
import { execFileSync } from 'node:child_process';

const [mode, ...rest] = process.argv.slice(2);
const valuesOnly = rest[0] === '--values';
const args = valuesOnly ? rest.slice(1) : rest;
if (!['folder', 'closure'].includes(mode) || args.length === 0) {
  console.error('usage: node tools/import-figures.mjs folder <dir> | closure <file> [<file> ...]');
  process.exit(2);
}

const cruise = JSON.parse(
  execFileSync('npx', ['depcruise', 'src', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'ignore'],
  }),
);
const ours = (path) => path.startsWith('src/');
const imports = new Map(
  cruise.modules
    .filter((m) => ours(m.source))
    .map((m) => [m.source, m.dependencies.filter((d) => !(valuesOnly && d.dependencyTypes.includes('type-only'))).map((d) => d.resolved).filter(ours)]),
);

if (mode === 'folder') {
  const prefix = args[0].replace(/\/?$/, '/');
  const files = [...imports.keys()].filter((file) => file.startsWith(prefix)).sort();
  const inside = (file) => (imports.get(file) ?? []).filter((target) => target.startsWith(prefix));
  const depth = new Map();
  const depthOf = (file) => {
    if (!depth.has(file)) depth.set(file, 1 + Math.max(0, ...inside(file).map(depthOf)));
    return depth.get(file);
  };
  const edges = files.reduce((sum, file) => sum + inside(file).length, 0);
  console.log(JSON.stringify({ folder: prefix, files: files.length, importsBetweenThem: edges, depth: Math.max(0, ...files.map(depthOf)) }));
} else {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const target of imports.get(file) ?? []) visit(target);
  };
  for (const file of args) {
    if (!imports.has(file)) {
      console.error(`not one of our modules: ${file}`);
      process.exit(2);
    }
    visit(file);
  }
  console.log(JSON.stringify({ from: args, valuesOnly, files: seen.size, list: [...seen].sort() }, null, 1));
}
