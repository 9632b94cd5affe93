/**
 * The command line's entry point (`npm run admin`, `node dist/admin.cjs <command>`): like src/start.cts, it first
 * refuses a Node.js older than the floor with one line and exit status 1 (argon2's binary, which the composition
 * loads, would crash it: see node-floor.cts), then loads the command line (src/admin.ts, an ES module) and runs it.
 * CommonJS, so that the check runs before any ES module is read.
 */
import { nodeFloorRefusal } from './infrastructure/config/node-floor.cjs';

const refusal = nodeFloorRefusal(process.version);
if (refusal !== undefined) {
  process.stderr.write(`${refusal}\n`);
  process.exit(1);
}

// Loaded only now, so that a too-old Node stops on the line above without reading argon2.
void import('./admin.js').then((admin) => admin.runAdminFromCommandLine());
