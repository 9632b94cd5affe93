/**
 * Architecture rules (hexagonal layering) checked by `npm run lint:layers`.
 *
 * Paths are matched against what dependency-cruiser reports: project files relative to the repo
 * root (`src/domain/user.ts`), npm packages by their resolved file (`node_modules/mongodb/lib/index.js`)
 * and node core modules by bare name (`crypto`, even when imported as `node:crypto`).
 * Package patterns also accept the bare name, for the case where a package cannot be resolved.
 * Type-only imports count (tsPreCompilationDeps: true).
 *
 * @type {import('dependency-cruiser').IConfiguration}
 */

const { readdirSync } = require('node:fs');

/**
 * The capabilities, by the names of their manifests (src/capabilities/<name>.ts): each has a home folder of that name
 * in each layer it touches (src/<layer>/<name>/).
 */
const CAPABILITIES = readdirSync(`${__dirname}/src/capabilities`)
  .filter((file) => file.endsWith('.ts') && file !== 'index.ts' && !file.endsWith('.spec.ts'))
  .map((file) => file.slice(0, -'.ts'.length));
const LAYER = '(domain|application|infrastructure|interfaces|interfaces/http|interfaces/cli)';
/** A path inside any capability's home folders. */
const IN_A_CAPABILITY = `^src/${LAYER}/(${CAPABILITIES.join('|')})/`;

/** Every dependency type that means "an npm package". */
const NPM = ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-bundled', 'npm-no-pkg', 'npm-unknown'];

/** Matches a package by resolved path (any node_modules level) or by bare name. */
const pkg = (...names) => {
  const alt = names.join('|');
  return `(^|/)node_modules/(${alt})/|^(${alt})(/|$)`;
};

module.exports = {
  forbidden: [
    // --- domain: pure -----------------------------------------------------------------------
    {
      name: 'domain-is-pure',
      comment: 'src/domain may only import other files in src/domain.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { pathNot: '^src/domain/', dependencyTypesNot: [...NPM, 'core'] },
    },
    {
      name: 'domain-no-npm',
      comment: 'src/domain may not import npm packages (not even types).',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { dependencyTypes: NPM },
    },
    {
      name: 'domain-no-core',
      comment: 'src/domain may not import node core modules (node:*).',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { dependencyTypes: ['core'] },
    },

    // --- application: domain + inversify only -----------------------------------------------
    {
      name: 'application-sees-domain-only',
      comment: 'src/application may only import src/application and src/domain (plus the inversify package).',
      severity: 'error',
      from: { path: '^src/application/', pathNot: '\\.spec\\.ts$' },
      to: { pathNot: '^src/(application|domain)/', dependencyTypesNot: [...NPM, 'core'] },
    },
    {
      name: 'application-npm-inversify-only',
      comment: 'The only npm package src/application may import is inversify.',
      severity: 'error',
      from: { path: '^src/application/', pathNot: '\\.spec\\.ts$' },
      to: { dependencyTypes: NPM, pathNot: pkg('inversify', '@inversifyjs/[^/]+') },
    },
    {
      name: 'application-no-core',
      comment: 'src/application may not import node core modules (node:*): that is an adapter concern.',
      severity: 'error',
      from: { path: '^src/application/', pathNot: '\\.spec\\.ts$' },
      to: { dependencyTypes: ['core'] },
    },


    // --- the shape of the application: one folder per use case ------------------------------
    {
      name: 'use-cases-independent',
      comment: 'A use case (src/application/use-cases/<name>/) imports no other use case: what several share lives in application/shared or application/policies.',
      severity: 'error',
      from: { path: '^src/application/use-cases/([^/]+)/' },
      to: { path: '^src/application/use-cases/', pathNot: '^src/application/use-cases/$1/' },
    },
    {
      name: 'policies-and-shared-not-use-cases',
      comment: 'Policies and shared pieces serve use cases; they never import one.',
      severity: 'error',
      from: { path: '^src/application/(policies|shared)/' },
      to: { path: '^src/application/use-cases/' },
    },
    {
      name: 'only-registry-builds-use-cases',
      comment: 'Outside the application, only src/infrastructure (types of a job it drives) and specs reach into a use case; everything else goes through the registry.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/application/', '^src/infrastructure/', '\\.spec\\.ts$'] },
      to: { path: '^src/application/use-cases/' },
    },
    {
      name: 'interfaces-see-registry-and-ports',
      comment: "The driving adapters know the application by its registry (use cases, their public types and limits), its port types and its errors; a capability's, by its use cases' factory, ports and errors.",
      severity: 'error',
      from: { path: '^src/interfaces/' },
      to: { path: '^src/application/', pathNot: '^src/application/(registry\\.ts|errors\\.ts|ports/|[a-z-]+/(errors\\.ts|ports/|[a-z-]+-use-cases\\.ts))' },
    },
    {
      name: 'interfaces-port-types-only',
      comment: 'The driving adapters use ports as types only; an adapter instance reaches them through the registry.',
      severity: 'error',
      from: { path: '^src/interfaces/' },
      to: { path: '^src/application/ports/', dependencyTypesNot: ['type-only'] },
    },

    {
      name: 'operations-independent',
      comment: 'An HTTP operation (src/interfaces/http/operations/<name>.ts) imports no other operation: what several share lives in http/shared. Only the list (index.ts) imports them all.',
      severity: 'error',
      from: { path: '^src/interfaces/http/operations/(?!index\\.ts$)' },
      to: { path: '^src/interfaces/http/operations/' },
    },
    {
      name: 'http-shared-not-operations',
      comment: 'The shared HTTP helpers serve the operations; they never import one.',
      severity: 'error',
      from: { path: '^src/interfaces/http/shared/' },
      to: { path: '^src/interfaces/http/(operations/|[^/]+$)' },
    },

    // --- capabilities: each in its home folders, the core knowing none of them ----------------
    {
      name: 'core-imports-no-capability',
      comment: 'The core (every file outside the capabilities\' folders and the manifests) imports no capability file: it knows them through the manifests the composition roots pass it.',
      severity: 'error',
      from: { path: '^src/', pathNot: [IN_A_CAPABILITY, '^src/capabilities/', '^src/(main|admin)\\.ts$', '\\.spec\\.ts$'] },
      to: { path: [IN_A_CAPABILITY, '^src/capabilities/'] },
    },
    ...CAPABILITIES.map((name) => ({
      name: `${name}-sees-others-through-ports`,
      comment: `The ${name} capability imports another capability only through its public ports (src/application/<other>/ports/).`,
      severity: 'error',
      from: { path: `^src/${LAYER}/${name}/` },
      to: { path: IN_A_CAPABILITY, pathNot: [`^src/${LAYER}/${name}/`, `^src/application/[^/]+/ports/`] },
    })),
    {
      name: 'capability-use-cases-independent',
      comment: 'A capability\'s use case (src/application/<capability>/use-cases/<name>/) imports no other use case.',
      severity: 'error',
      from: { path: '^src/application/([^/]+)/use-cases/([^/]+)/' },
      to: { path: ['^src/application/use-cases/', '^src/application/[^/]+/use-cases/'], pathNot: '^src/application/$1/use-cases/$2/' },
    },

    // --- adapters and driving side ----------------------------------------------------------
    {
      name: 'interfaces-not-infrastructure',
      comment: 'src/interfaces talks to the application through its ports, never to src/infrastructure.',
      severity: 'error',
      from: { path: '^src/interfaces/' },
      to: { path: '^src/infrastructure/' },
    },
    {
      name: 'infrastructure-not-interfaces',
      comment: 'src/infrastructure may not import src/interfaces.',
      severity: 'error',
      from: { path: '^src/infrastructure/' },
      to: { path: '^src/interfaces/' },
    },
    {
      name: 'only-main-uses-container',
      comment: 'Only the composition roots (src/main.ts, src/admin.ts), the manifests (src/capabilities), src/infrastructure itself and tests may use the inversify container modules.',
      severity: 'error',
      from: { pathNot: '^(src/(main|admin)\\.ts$|src/capabilities/|src/infrastructure/|tests/)' },
      to: { path: '^src/infrastructure/container/' },
    },

    // --- adapter confinement: each driver stays in its adapter (tests/ and bench/ may use anything) ---
    {
      name: 'mongodb-only-in-mongo-adapter',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/infrastructure/mongo/' },
      to: { path: pkg('mongodb') },
    },
    {
      name: 'security-libs-only-in-security-adapter',
      comment: 'argon2 and jsonwebtoken belong to src/infrastructure/security.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/infrastructure/security/' },
      to: { path: pkg('argon2', 'jsonwebtoken') },
    },
    {
      name: 'otpauth-only-in-second-factor-adapter',
      comment: 'otpauth and qrcode (the authenticator app) belong to src/infrastructure/second-factor.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/infrastructure/second-factor/' },
      to: { path: pkg('otpauth', 'qrcode') },
    },
    {
      name: 'simplewebauthn-only-in-passkeys-adapter',
      comment: '@simplewebauthn (the WebAuthn ceremonies) belongs to src/infrastructure/passkeys.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/infrastructure/passkeys/' },
      to: { path: pkg('@simplewebauthn/[^/]+') },
    },
    {
      name: 'lmdb-only-in-lmdb-adapter',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/infrastructure/lmdb/' },
      to: { path: pkg('lmdb') },
    },
    {
      name: 'nodemailer-only-in-mail-adapter',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/infrastructure/mail/' },
      to: { path: pkg('nodemailer') },
    },
    {
      name: 'openid-client-only-in-oauth-adapter',
      comment: 'openid-client (and the oauth4webapi under it) belong to src/infrastructure/social-sign-in/providers.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/infrastructure/social-sign-in/providers/' },
      to: { path: pkg('openid-client', 'oauth4webapi') },
    },
    {
      name: 'standardwebhooks-only-in-webhooks-adapter',
      comment: 'standardwebhooks (the signing of webhooks) belongs to src/infrastructure/webhooks.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/infrastructure/webhooks/' },
      to: { path: pkg('standardwebhooks') },
    },
    {
      name: 'ioredis-only-in-rate-limit-adapter',
      comment: 'ioredis (the shared per-client limits) belongs to src/infrastructure/rate-limit.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/infrastructure/rate-limit/' },
      to: { path: pkg('ioredis') },
    },
    {
      name: 'fastify-only-in-http-interface',
      comment: 'fastify, @fastify/* and helmet belong to src/interfaces/http (and the composition root src/main.ts).',
      severity: 'error',
      from: { path: '^src/', pathNot: '^(src/interfaces/http/|src/main\\.ts$)' },
      to: { path: pkg('fastify', '@fastify/[^/]+', 'helmet') },
    },

    // --- hygiene ------------------------------------------------------------------------------
    {
      name: 'no-circular',
      comment: 'No import cycles (type-only imports included).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'src-not-tests',
      comment: 'Production code may not import tests/ or bench/.',
      severity: 'error',
      from: { path: '^src/', pathNot: '\\.spec\\.ts$' },
      to: { path: '^(tests|bench)/' },
    },
    {
      name: 'src-no-dev-dependencies',
      comment: 'Production code may not import devDependencies: they are absent after `npm ci --omit=dev`.',
      severity: 'error',
      from: { path: '^src/', pathNot: '\\.spec\\.ts$' },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
  ],

  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: '(^|/)node_modules/' },
    exclude: { path: '(^|/)(dist|coverage|data)/' },
    moduleSystems: ['es6', 'cjs'],
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
