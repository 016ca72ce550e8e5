/**
 * `npm run new-connector -- <name>`: the skeleton of a new PSP connector (docs/psps/README.md#how-to-add-a-connector).
 * It writes the PSP's folder (`src/psps/<name>/`: profile, index, client, mapping, each compiling, every
 * operation throwing "not built yet", and its simulator module simulator.ts), its corpus folder, its doc
 * page and its failing tests (`test/psps/<name>/`), and adds its line to the three tables that list the
 * PSPs: the profiles (src/psps/profiles.ts), the connectors (src/psps/registry.ts) and the simulator's
 * protocols (src/bank-sim/protocols.ts). It refuses a bad name or one already taken, and writes nothing then.
 * The tests it writes fail with "not built yet" until the connector is built: none is skipped.
 */
import { randomInt } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What a PSP's name may be: lower case letters and digits, starting with a letter (profile.ts). */
const NAME = /^[a-z][a-z0-9]{1,19}$/;

export class ScaffoldRefused extends Error {
  override name = 'ScaffoldRefused';
}

/** The files the scaffold edits, relative to the repository's root (the unit test gives it a copy of these). */
export const EDITED_FILES = ['src/psps/profiles.ts', 'src/psps/registry.ts', 'src/bank-sim/protocols.ts'] as const;

interface Names {
  name: string;
  /** `ASANPARDAKHT`: the constants' prefix. */
  upper: string;
  /** `Asanpardakht`: the client's class. */
  title: string;
}

/** `text` with `importLine` after its last import and `entry` as the last line of the object literal opened by `tableStart`. */
export function addToTable(text: string, file: string, tableStart: string, importLine: string, entry: string): string {
  const open = text.indexOf(tableStart);
  if (open < 0) throw new ScaffoldRefused(`${file} has no "${tableStart}": add the lines by hand`);
  const close = text.indexOf('\n}', open);
  if (close < 0) throw new ScaffoldRefused(`${file}: the table "${tableStart}" is not closed`);
  const withEntry = `${text.slice(0, close)}\n${entry}${text.slice(close)}`;
  const imports = [...withEntry.matchAll(/^import [^;]*;$/gm)];
  const last = imports.at(-1);
  const at = last === undefined ? 0 : last.index + last[0].length + 1;
  return `${withEntry.slice(0, at)}${importLine}\n${withEntry.slice(at)}`;
}

/** The simulator ports and terminals the profiles already use, so the new one takes others. */
function takenByProfiles(root: string): { ports: number[]; terminals: string[] } {
  const dir = join(root, 'src/psps');
  const texts = readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, 'profile.ts')))
    .map((d) => readFileSync(join(dir, d.name, 'profile.ts'), 'utf8'));
  return {
    ports: texts.flatMap((t) => [...t.matchAll(/\bport: (\d+)/g)].map((m) => Number(m[1]))),
    terminals: texts.flatMap((t) => [...t.matchAll(/\bterminalId: '(\d+)'/g)].map((m) => m[1]!)),
  };
}

function files(n: Names, port: number, terminalId: string): Record<string, string> {
  const { name, upper, title } = n;
  const notBuilt = `not built yet: the ${name} connector (docs/psps/${name}.md)`;
  return {
    [`src/psps/${name}/profile.ts`]: `/**
 * ${title} as plain data: its capabilities as its references show them (docs/psps/${name}.md#capabilities),
 * its settings and its simulator. Written by \`npm run new-connector\`: every value below is a placeholder
 * until a reference settles it (docs/psps/${name}.md says which do, and what Dargah does meanwhile).
 */
import type { PspProfile } from '../profile.ts';

export const ${upper}_PROFILE = {
  name: '${name}',
  title: '${title}',
  // Its name on the dashboard's Persian pages: write it in Persian.
  persianTitle: '${title}',
  protocol: 'not built yet',
  capabilities: {
    // Placeholders, the most careful values, until the corpus shows the PSP's own.
    capture: 'verify',
    reversalWindowMs: 50 * 60_000,
    unverifiedReversalMs: 30 * 60_000,
    refund: 'none',
    inquiry: false,
    dailyReport: false,
  },
  namesCardAtVerify: false,
  // Its credentials besides the terminal, as its references name them (USERNAME, PASSWORD, KEY, …).
  settings: [],
  liveUrlExample: 'https://${name}.example',
  simulator: { port: ${port}, terminalId: '${terminalId}', autoReverseSeconds: 1800 },
} as const satisfies PspProfile;
`,
    [`src/psps/${name}/mapping.ts`]: `/**
 * ${title}'s messages to Dargah's and back (pure code): its result codes and what each is to Dargah, its
 * return's fields to BankCallback, its answers' values, as its corpus (test/fixtures/psps/${name}/) shows them.
 */
import type { BankCallback } from '../../domain/payment-workflow.ts';

export const NOT_BUILT = '${notBuilt}';

/** The return's fields, normalized; undefined when they are not ${name}'s or name another payment. */
export function ${name}Return(_fields: Record<string, string>, _paymentId?: string): BankCallback | undefined {
  throw new Error(NOT_BUILT);
}

/** Whether a return's fields are ${name}'s by their own names. */
export function recognises${title}Return(_fields: Record<string, string>): boolean {
  throw new Error(NOT_BUILT);
}
`,
    [`src/psps/${name}/client.ts`]: `/**
 * ${title}'s client (PspClient): every call through the transport kit (../transport.ts: postJsonObject,
 * bankHttp or SoapService), which holds it to BANK_TIMEOUT_MS with our operation key, traces it, maps
 * no answer to BankUnavailableError and keeps secrets out of errors; the client adds its fields, its
 * codes and its refusals (BankRefusalError).
 * Written by \`npm run new-connector\`: every operation throws "not built yet" until it is built from the corpus.
 */
import type { BankEndpoint, BankOperationAnswer, BankToken, Confirmation, PspClient } from '../psp-client.ts';
import { NOT_BUILT } from './mapping.ts';
import { ${upper}_PROFILE } from './profile.ts';

export class ${title}Client implements PspClient {
  readonly name = '${name}';
  readonly capabilities = ${upper}_PROFILE.capabilities;
  readonly terminalId: string;

  constructor(private readonly endpoint: BankEndpoint) {
    this.terminalId = endpoint.terminalId;
  }

  requestToken(_paymentId: string, _amount: number, _redirectUrl: string): Promise<BankToken> {
    return Promise.reject(new Error(NOT_BUILT));
  }

  confirm(_paymentId: string, _refNum: string, _amount: number): Promise<Confirmation> {
    return Promise.reject(new Error(NOT_BUILT));
  }

  reverse(_paymentId: string, _refNum: string): Promise<BankOperationAnswer> {
    return Promise.reject(new Error(NOT_BUILT));
  }
}
`,
    [`src/psps/${name}/index.ts`]: `/** The ${name} connector (src/psps/connector.ts): its profile and its code, listed once in registry.ts. */
import { pageOriginOf, terminalEndpoint, terminalSetting, type PspConnector } from '../connector.ts';
import { ${title}Client } from './client.ts';
import { NOT_BUILT, ${name}Return, recognises${title}Return } from './mapping.ts';
import { ${upper}_PROFILE } from './profile.ts';

// \`satisfies\`, not a type annotation: the registry holds the profile's literal name to its key.
export const ${upper}_CONNECTOR = {
  profile: ${upper}_PROFILE,
  client: (settings, timeoutMs) => new ${title}Client({ ...terminalEndpoint(settings), password: terminalSetting(settings, 'PASSWORD'), timeoutMs }),
  parseReturn: (fields, paymentId) => ${name}Return(fields, paymentId),
  recognisesReturn: (fields) => recognises${title}Return(fields),
  orderId: () => {
    throw new Error(NOT_BUILT);
  },
  // The origin of PAGE_URL, else of URL: change it if the PSP's page is elsewhere.
  pageOrigins: pageOriginOf,
} satisfies PspConnector;
`,
    [`src/psps/${name}/simulator.ts`]: `/**
 * ${title}'s simulator (BANK_SIM_PROTOCOL=${name}): its calls and its page as its corpus shows them
 * (test/fixtures/psps/${name}/, docs/psps/${name}.md), not as our connector happens to speak them.
 * Written by \`npm run new-connector\`: every call answers 501 "not built yet" until it is built from the corpus.
 */
import type { PageDialect } from '../../bank-sim/customer-page.ts';
import { json, type Routes } from '../../bank-sim/http.ts';
import type { SimulatorProtocol } from '../../bank-sim/simulator-protocol.ts';

const NOT_BUILT = '${notBuilt}';

const ${upper}_PAGE: PageDialect = {
  pagePath: '/${name}/page',
  pageMethod: 'GET',
  choicePath: '/${name}/pay',
  tokenField: 'token',
  paidNumbers: () => {
    throw new Error(NOT_BUILT);
  },
  defaultCard: '6037991234567893',
  callbackFields: () => {
    throw new Error(NOT_BUILT);
  },
};

/** Every call of the protocol, until it is built: 501 (the page's paths and the admin endpoints go on to theirs). */
const notBuilt: Routes = (_method, path) =>
  path.startsWith('/admin/') || path === ${upper}_PAGE.pagePath || path === ${upper}_PAGE.choicePath ? undefined : ({ res }) => json(res, 501, { error: NOT_BUILT });

export const ${upper}_SIMULATOR: SimulatorProtocol = {
  name: '${name}',
  title: "${title}'s IPG (not built yet)",
  defaults: { port: ${port}, terminalId: '${terminalId}', autoReverseSeconds: 1800, settings: {} },
  page: ${upper}_PAGE,
  routes: () => [notBuilt],
};
`,
    [`test/fixtures/psps/${name}/README.md`]: `# ${title}'s conformance corpus

One JSON file per message of ${title}'s protocol (each request we send, each answer, the customer's
redirect to the page and the page's return), of the shape every PSP's corpus has (see
\`test/fixtures/psps/mellat/\` and docs/psps/mellat.md#where-this-comes-from):
\`{psp, operation, direction, http, message, outcome, code?, sources, disagreements}\`.

- Each message names **at least two independent sources** in \`sources\` (the repository and the
  path of a public integration or the PSP's own published sample, and a note of what it shows);
  where they differ, \`disagreements\` says how, and docs/psps/${name}.md what Dargah does.
- Nothing of a source is copied: it is read, and the message written here in our own words.
- No message that no reference shows: an operation no source calls is not in the corpus, and the
  connector does not call it.

The connector's unit tests (test/psps/${name}/unit/) read these files; the simulator
(src/psps/${name}/simulator.ts) is held to them too.
`,
    [`docs/psps/${name}.md`]: `# ${title} (\`${name}\`)

**Not built yet**: written by \`npm run new-connector -- ${name}\`. The steps from here to done are in
[README.md](README.md#how-to-add-a-connector).

The PSP's folder is \`src/psps/${name}/\` (\`profile.ts\`, \`index.ts\`, \`client.ts\`,
\`mapping.ts\`, the simulator's \`simulator.ts\`), its tests \`test/psps/${name}/\`; its settings are \`SANDBOX_${upper}_*\` (test mode: the simulator run with
\`BANK_SIM_PROTOCOL=${name}\`, which \`npm start\` and \`npm test\` start) and \`${upper}_*\` (live: only
when \`${upper}_BASE_URL\` is set), [CONFIGURATION.md](../CONFIGURATION.md).

## Where this comes from

The corpus, \`test/fixtures/psps/${name}/\`: which references were read, each message with two
independent sources.

## Protocol

The calls, the page, the return's fields, as the corpus shows them.

## Capabilities

What its profile declares, and the reference of each value.

## Result codes and what Dargah does

## What no reference settles, and what Dargah does meanwhile

## The simulator

## Tests
`,
    [`test/psps/${name}/unit/connector.test.ts`]: `/**
 * The ${name} connector against its corpus (test/fixtures/psps/${name}/), without the network. Written by
 * \`npm run new-connector\`: these fail with "not built yet" until the connector is built.
 */
import assert from 'node:assert/strict';
import { ${upper}_CONNECTOR } from '../../../../src/psps/${name}/index.ts';

const settings = { URL: 'http://127.0.0.1:1', PAGE_URL: '', TERMINAL_ID: '${terminalId}' };

describe('the ${name} connector against its corpus', () => {
  it("reads the corpus's paid return to a BankCallback of the payment it names", () => {
    assert.notEqual(${upper}_CONNECTOR.parseReturn({}, undefined), undefined);
  });

  it("sends the corpus's token request and reads its answer", async () => {
    const token = await ${upper}_CONNECTOR.client(settings, 1_000).requestToken('00000000-0000-4000-8000-000000000000', 10_000, 'http://127.0.0.1/return');
    assert.ok(token.url !== '');
  });

  it("reads the corpus's verify answer to a confirmation", async () => {
    const confirmation = await ${upper}_CONNECTOR.client(settings, 1_000).confirm('00000000-0000-4000-8000-000000000000', 'ref', 10_000);
    assert.equal(confirmation.result, 'confirmed');
  });
});
`,
    [`test/psps/${name}/corpus-e2e.test.ts`]: `/**
 * A payment at ${name} from token to verify through the gateway, against a server answering the corpus's
 * messages (test/fixtures/psps/${name}/), as test/psps/mellat/corpus-e2e.test.ts does for Mellat. Written by
 * \`npm run new-connector\`: it fails with "not built yet" until the connector is built.
 */
import assert from 'node:assert/strict';
import { ${upper}_CONNECTOR } from '../../../src/psps/${name}/index.ts';

describe('a ${name} payment through the gateway, against the corpus', () => {
  it('is paid, verified and reversed as the corpus shows', async () => {
    const client = ${upper}_CONNECTOR.client({ URL: 'http://127.0.0.1:1', PAGE_URL: '', TERMINAL_ID: '${terminalId}' }, 1_000);
    const token = await client.requestToken('00000000-0000-4000-8000-000000000000', 10_000, 'http://127.0.0.1/return');
    assert.ok(token.url !== '');
  });
});
`,
  };
}

export interface Scaffolded {
  written: string[];
  edited: string[];
}

/** Writes the skeleton of connector `name` under `root`; refuses a bad or taken name before writing anything. */
export function newConnector(root: string, name: string): Scaffolded {
  if (!NAME.test(name))
    throw new ScaffoldRefused(
      `"${name}" is not a PSP name: lower case letters and digits, starting with a letter, 2 to 20 characters`,
    );
  const names: Names = { name, upper: name.toUpperCase(), title: `${name[0]!.toUpperCase()}${name.slice(1)}` };
  const profiles = readFileSync(join(root, 'src/psps/profiles.ts'), 'utf8');
  if (new RegExp(`^\\s+${name}: `, 'm').test(profiles) || existsSync(join(root, 'src/psps', name)))
    throw new ScaffoldRefused(`a connector named ${name} exists already (src/psps/${name}/, profiles.ts)`);
  const taken = takenByProfiles(root);
  const port = Math.max(3099, ...taken.ports) + 1;
  let terminalId: string;
  do terminalId = String(randomInt(10_000_000, 100_000_000));
  while (taken.terminals.includes(terminalId));
  const written = files(names, port, terminalId);
  for (const file of Object.keys(written))
    if (existsSync(join(root, file))) throw new ScaffoldRefused(`${file} exists already`);
  // Every edit is made in memory first, so a refusal leaves every file as it was.
  const edits: Record<string, string> = {
    'src/psps/profiles.ts': addToTable(
      profiles,
      'profiles.ts',
      'export const PSP_PROFILES = {',
      `import { ${names.upper}_PROFILE } from './${name}/profile.ts';`,
      `  ${name}: ${names.upper}_PROFILE,`,
    ),
    'src/bank-sim/protocols.ts': addToTable(
      readFileSync(join(root, 'src/bank-sim/protocols.ts'), 'utf8'),
      'src/bank-sim/protocols.ts',
      'export const SIMULATOR_PROTOCOLS = {',
      `import { ${names.upper}_SIMULATOR } from '../psps/${name}/simulator.ts';`,
      `  ${name}: ${names.upper}_SIMULATOR,`,
    ),
  };
  const registry = join(root, 'src/psps/registry.ts');
  if (existsSync(registry)) {
    edits['src/psps/registry.ts'] = addToTable(
      readFileSync(registry, 'utf8'),
      'registry.ts',
      'export const PSP_CONNECTORS = {',
      `import { ${names.upper}_CONNECTOR } from './${name}/index.ts';`,
      `  ${name}: ${names.upper}_CONNECTOR,`,
    );
  }
  for (const [file, text] of Object.entries(written)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  }
  for (const [file, text] of Object.entries(edits)) writeFileSync(join(root, file), text);
  return { written: Object.keys(written), edited: Object.keys(edits) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const name = process.argv[2] ?? '';
  try {
    const { written, edited } = newConnector(root, name);
    const say = (line: string) => process.stdout.write(`${line}\n`);
    say(`Wrote the skeleton of the ${name} connector:`);
    for (const file of written) say(`  ${file}`);
    say('and added its line to:');
    for (const file of edited) say(`  ${file}`);
    if (!edited.includes('src/psps/registry.ts'))
      say('(no src/psps/registry.ts here: list its connector there by hand once it exists)');
    // The deployment files and the docs' tables name every PSP of the registry: regenerated now.
    const generated = spawnSync(process.execPath, [join(root, 'tools/generate/psps.ts')], {
      cwd: root,
      stdio: 'inherit',
    });
    if (generated.status !== 0) say('npm run generate:psps failed: run it again once the profile compiles.');
    // In the project's layout from the start (npm run lint checks it), whatever the templates' line breaks.
    const code = [...written, ...edited]
      .filter((file) => /\.(ts|mjs|cjs|js)$/.test(file))
      .map((file) => join(root, file));
    const formatted = spawnSync(
      process.execPath,
      [join(root, 'node_modules', 'prettier', 'bin', 'prettier.cjs'), '--write', '--log-level', 'warn', ...code],
      {
        cwd: root,
        stdio: 'inherit',
      },
    );
    if (formatted.status !== 0) say('npm run format failed on the new files: run it once they parse.');
    say(
      `Its tests fail with "not built yet" until it is built: docs/psps/README.md#how-to-add-a-connector says how, from the corpus to done.`,
    );
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
