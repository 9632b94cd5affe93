// `npm start`'s prestart and `npm run admin`'s: compiles src/ to dist/ only when an entry point (dist/main.js,
// dist/start.cjs, dist/admin.js, dist/admin.cjs) is missing or older than anything the build reads (src/**,
// tsconfig*.json, package-lock.json). A current build starts at once; `npm run build` always compiles.
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const mtime = (path) => {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return -1;
  }
};
const newest = (path) =>
  statSync(path).isDirectory() ? Math.max(-1, ...readdirSync(path).map((name) => newest(join(path, name)))) : mtime(path);

const built = Math.min(...['main.js', 'start.cjs', 'admin.js', 'admin.cjs'].map((entry) => mtime(join('dist', entry))));
const inputs = Math.max(newest('src'), ...['tsconfig.json', 'tsconfig.build.json', 'package-lock.json'].map(mtime));
if (built >= inputs) {
  process.stdout.write('build: dist/ is current, not rebuilding\n');
} else {
  process.stdout.write(built < 0 ? 'build: no dist/ yet, compiling\n' : 'build: src/ changed since the last build, compiling\n');
  execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
}
