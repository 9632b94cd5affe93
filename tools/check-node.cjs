// tools/check-node.cjs — the Node.js floor guard, run first by every npm script that loads argon2 or lmdb
// (package.json). On a Node older than the floor it prints one line to stderr and exits 1, instead of the
// segmentation fault argon2's prebuilt binary causes there: it declares Node-API 10, which Node has since 22.14.0
// (and 23.6.0 on the 23 line); older ones load it anyway and crash. On a Node at or above it: no output, exit 0.
//
// Plain ES5 CommonJS with no dependency, so that any old Node parses it; `require`d, it only exports what it knows.
// The same floor: package.json engines and src/infrastructure/config/node-floor.cts (`node dist/start.cjs`), both
// checked against this file by tests/unit/infrastructure/node-floor.spec.ts; .ci/node.sh and .ci/floor use it.
'use strict';

var FLOOR = '22.14.0';
// The 23 line (end of life since June 2025) got Node-API 10 only in 23.6.0.
var LINE_FLOORS = { 23: '23.6.0' };
var FIX = 'run it through npm after "npm ci" (which installs the Node.js the project is tested on into node_modules), or install Node.js 22 LTS';

function parts(version) {
  return String(version).replace(/^v/, '').split('.').map(function (part) {
    return parseInt(part, 10) || 0;
  });
}

/** Whether `version` ("22.14.0" or "v22.14.0") is older than the floor of its line. */
function tooOld(version) {
  var have = parts(version);
  var need = parts(LINE_FLOORS[have[0]] || FLOOR);
  for (var i = 0; i < need.length; i++) {
    if ((have[i] || 0) !== need[i]) return (have[i] || 0) < need[i];
  }
  return false;
}

/** The one line a too-old Node stops with (`found` as process.version writes it), or undefined when it is new enough. */
function refusal(found) {
  return tooOld(found) ? 'account-service needs Node.js >= ' + FLOOR + ' (found ' + found + '): ' + FIX : undefined;
}

module.exports = { FLOOR: FLOOR, LINE_FLOORS: LINE_FLOORS, tooOld: tooOld, refusal: refusal };

if (require.main === module) {
  var line = refusal(process.version);
  if (line) {
    process.stderr.write(line + '\n');
    process.exitCode = 1;
  }
}
