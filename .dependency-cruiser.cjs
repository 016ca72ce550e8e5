// The import rule of docs/ARCHITECTURE.md, checked by `npm run lint` (and so
// by `npm test`): every layer imports only the layers listed for it, type-only
// imports count too, and no module may take part in an import cycle.
// `npm run deps:graph` prints the folder-level graph.

/** Each layer: the modules it holds, and the layers it may import (besides itself). */
const LAYERS = {
  // The PSPs' profiles: the one list of PSPs as plain data (src/psps/profiles.ts, the types of
  // src/psps/profile.ts and each PSP's src/psps/<name>/profile.ts), a fact every layer needs and code
  // that reaches nothing: below the domain, though they sit in the PSPs' folders. A direct debit
  // provider's profile (src/direct-debit/providers/<name>/profile.ts) is the same kind of plain data.
  profiles: {
    path: '^src/(psps/(profiles?|[^/]+/profile)|direct-debit/providers/[^/]+/profile)\\.ts$',
    may: [],
  },
  domain: { path: '^src/domain/', may: ['profiles'] },
  // src/observability: the metric definitions and the tracing set-up, usable by every layer above;
  // src/config-schema/: the settings of each area, which src/config-schema.ts composes.
  foundation: {
    path: '^src/((errors|config|config-(schema|values|deprecated|psps|production)|logger)\\.ts$|config-schema/|observability/)',
    may: ['profiles'],
  },
  db: { path: '^src/db/', may: ['profiles', 'domain', 'foundation'] },
  temporal: { path: '^src/temporal/', may: ['profiles', 'domain', 'foundation', 'db'] },
  // The PSPs' connectors: the contract, the registry, the transport kit and each PSP's client and
  // mapping (src/psps/, but for the profiles below and the simulator modules of bankSim). They speak
  // to a PSP and read no records: the services and adapters that need records use them.
  psps: {
    path: '^src/psps/(?!(profiles?|[^/]+/(profile|simulator[^/]*))\\.ts$)',
    may: ['profiles', 'domain', 'foundation'],
  },
  // The direct debit providers' connectors are adapters too; their profiles and simulators are not.
  // Adapters speak to the world outside and read no records: what needs records is a service (or an
  // activity) that calls the adapter with what it read (src/db is not theirs to import).
  adapters: {
    path: '^src/(adapters/|direct-debit/providers/(?![^/]+/(profile|simulator[^/]*)\\.ts$))',
    may: ['profiles', 'domain', 'foundation', 'psps'],
  },
  services: {
    path: '^src/(payments|refunds|webhooks|merchants|accounts|ledger|settlements|direct-debit/(?!providers/))',
    may: ['profiles', 'domain', 'foundation', 'db', 'temporal', 'psps', 'adapters'],
  },
  activities: { path: '^activities/', may: ['profiles', 'domain', 'foundation', 'db', 'temporal', 'psps', 'adapters'] },
  // Workflows also import activity types; the rule below keeps those imports type-only.
  workflows: { path: '^workflows/', may: ['profiles', 'domain', 'activities'] },
  http: { path: '^src/http/', may: ['profiles', 'domain', 'foundation', 'db', 'temporal'] },
  api: {
    path: '^src/api/',
    may: ['profiles', 'domain', 'foundation', 'db', 'temporal', 'psps', 'adapters', 'services', 'http'],
  },
  // ZarinPal's and Zibal's protocols on the same payments (docs/COMPAT.md): beside the API, using its body reader and limits.
  compat: {
    path: '^src/compat/',
    may: ['profiles', 'domain', 'foundation', 'db', 'temporal', 'psps', 'adapters', 'services', 'http', 'api'],
  },
  pages: { path: '^src/pages/', may: ['profiles', 'domain', 'foundation', 'db', 'temporal', 'services', 'http'] },
  dashboard: {
    path: '^src/dashboard/',
    may: ['profiles', 'domain', 'foundation', 'db', 'temporal', 'psps', 'adapters', 'services', 'http'],
  },
  openapi: { path: '^openapi/', may: ['profiles', 'domain', 'foundation', 'http', 'api', 'compat'] },
  // The bank simulator is the bank, not the gateway: it may import no gateway code at all. Its shared
  // server and kit live in src/bank-sim/; each PSP's simulator module beside its connector, as
  // src/psps/<name>/simulator*.ts, is of this layer, not of the PSPs' folder it sits in.
  bankSim: { path: '^src/(bank-sim/|psps/[^/]+/simulator[^/]*\\.ts$)', may: [] },
  // A direct debit provider's simulator is the provider, not the gateway: its own profile (plain data) alone.
  directDebitSim: { path: '^src/direct-debit/providers/[^/]+/simulator[^/]*\\.ts$', may: ['profiles'] },
  entry: {
    path: '^src/(main|cli)/',
    may: [
      'profiles',
      'domain',
      'foundation',
      'db',
      'temporal',
      'psps',
      'adapters',
      'services',
      'activities',
      'workflows',
      'http',
      'api',
      'compat',
      'pages',
      'dashboard',
      'openapi',
    ],
  },
  // The tools that start and measure the product (the launcher, the benchmark): outside it, they may
  // use any of it, and nothing of the product may import them.
  tools: {
    path: '^tools/',
    may: [
      'profiles',
      'domain',
      'foundation',
      'db',
      'temporal',
      'psps',
      'adapters',
      'services',
      'activities',
      'workflows',
      'http',
      'api',
      'compat',
      'pages',
      'dashboard',
      'openapi',
      'bankSim',
      'directDebitSim',
      'entry',
    ],
  },
};

/** The folders that serve people (the hosted pages, the dashboard, the compatible protocols): records through services only. */
const RECORDS_THROUGH_SERVICES = '^src/(pages|dashboard|compat)/';

/** Every module of the project, so that npm packages and Node built-ins are left out of the layer rules. */
const PROJECT = '^(src|activities|workflows|openapi|tools|test)/';

const layerRules = Object.entries(LAYERS).map(([name, layer]) => ({
  name: `layer-${name}`,
  comment: `${name} (${layer.path}) may import only: ${[name, ...layer.may].join(', ')} (docs/ARCHITECTURE.md)`,
  severity: 'error',
  from: { path: layer.path },
  to: { path: PROJECT, pathNot: [layer.path, ...layer.may.map((other) => LAYERS[other].path)] },
}));

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'workflows-import-activity-types-only',
      comment: 'A workflow calls activities through proxyActivities; it may import their types, never their code.',
      severity: 'error',
      from: { path: LAYERS.workflows.path },
      to: { path: LAYERS.activities.path, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'workflows-are-deterministic',
      comment: 'Workflow code runs in a deterministic sandbox: no Node built-ins, directly or through what it imports.',
      severity: 'error',
      from: { path: `${LAYERS.workflows.path}|${LAYERS.domain.path}` },
      to: { dependencyTypes: ['core'] },
    },
    // The pages, the dashboard and the compatible protocols read and write records only through the
    // services (src/payments/hosted-page.ts, src/payments/compat-records.ts, src/accounts/audit.ts,
    // src/merchants/psp-routes.ts, …): of src/db they know just the handle's type, passed through to them.
    // Whole folders, so every page added to them later is held to it too.
    {
      name: 'db-handle-is-type-only',
      comment:
        'src/pages, src/dashboard and src/compat may import only the type of the database handle (import type { Db } from src/db/database.ts); the records are read through a service.',
      severity: 'error',
      from: { path: RECORDS_THROUGH_SERVICES },
      to: { path: LAYERS.db.path, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'db-handle-only',
      comment:
        "src/pages, src/dashboard and src/compat may name nothing of src/db but the handle of src/db/database.ts, not even a row type: a service answers in the domain's types.",
      severity: 'error',
      from: { path: RECORDS_THROUGH_SERVICES },
      to: { path: LAYERS.db.path, pathNot: '^src/db/database\\.ts$' },
    },
    {
      name: 'launcher-does-not-import-the-benchmark',
      comment: 'The benchmark uses the launcher to start its stack, not the other way round.',
      severity: 'error',
      from: { path: '^tools/launcher/' },
      to: { path: '^tools/bench/' },
    },
    {
      name: 'no-circular',
      comment: 'An import cycle makes a layer depend on itself through others.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: { path: [PROJECT, '^node_modules', '^[a-z:/_]+$'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
