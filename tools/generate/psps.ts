/**
 * `npm run generate:psps`: the PSP blocks of the deployment files and the docs, derived from the registry
 * of PSP profiles (src/psps/profiles.ts) and written between marker comments: docker-compose.yml
 * (a simulator service per PSP, the gateway's PSP settings, the worker's PSP secrets, the simulators'
 * volumes), .env.example (the simulators' passwords), deploy/systemd/worker.env.example (live PSP secrets), the Helm chart (values.yaml's settings, secrets
 * and simulators; the configmap's simulator addresses; the helpers' simulator list and the worker's
 * secret keys) and docs/psps/README.md's tables. `--check` writes nothing and fails when a committed
 * file differs (test/unit/launcher/generated-psps.test.ts does the same on every unit run).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  PSP_NAMES,
  PSP_PROFILES,
  pspSettings,
  pspSettingName,
  type PspName,
  type PspSettingOf,
} from '../../src/psps/profiles.ts';
import type { PspCapabilities, PspProfile } from '../../src/psps/profile.ts';

/** Where each capture kind captures, as the capabilities table says it. */
const CAPTURE_WORDS: Record<PspCapabilities['capture'], string> = {
  verify: 'its verify',
  settle: 'a separate settle',
  merchant_verify: "its verify, at the merchant's",
};

/** The text between `BEGIN generated: <block>` and `END generated: <block>` marker lines (their own lines kept). */
export function replaceBlock(text: string, file: string, block: string, lines: readonly string[]): string {
  const begin = new RegExp(`^.*BEGIN generated: ${block} .*$`, 'm');
  const end = new RegExp(`^.*END generated: ${block}\\b.*$`, 'm');
  const b = begin.exec(text);
  const e = end.exec(text);
  if (b === null || e === null || e.index < b.index)
    throw new Error(
      `${file}: the markers of the generated block "${block}" are missing (BEGIN generated: ${block} … END generated: ${block})`,
    );
  const afterBegin = b.index + b[0].length + 1;
  return `${text.slice(0, afterBegin)}${lines.map((l) => `${l}\n`).join('')}${text.slice(e.index)}`;
}

const profileOf = (psp: PspName): PspProfile => PSP_PROFILES[psp];
const quoted = (value: string) => JSON.stringify(value);
/** The compose service and Helm role of a PSP's simulator. */
export const simulatorService = (psp: PspName) => `bank-sim-${psp}`;
const settingsOf = (psp: PspName, mode: 'test' | 'live') =>
  pspSettings().filter((s) => s.psp === psp && s.mode === mode);
/** The command that makes a test value of a secret: any long random string, unless its shape is checked (PspSetting.make). */
export const makeCommand = (s: PspSettingOf) => s.make?.command ?? 'openssl rand -hex 32';
const required = (s: PspSettingOf) =>
  `\${${s.name}:?set ${s.name} (${s.psp}'s simulator's ${s.suffix.toLowerCase().replace(/_/g, ' ')}; ${makeCommand(s)})}`;
/** The comment line before a secret of a checked shape in .env.example and the Helm values: its shape and its own command. */
const makeComment = (s: PspSettingOf, indent: string) =>
  s.make === undefined ? [] : [`${indent}# ${s.name}: ${s.make.shape}, not hex: ${s.make.command}`];
/**
 * The secrets of a checked shape after the others: the command a file gives a secret is the nearest one
 * above it (the header's `openssl rand -hex 32`, or a checked shape's own comment), so a plain secret
 * listed after Sadad's key would read that key's base64 command as its own.
 */
const checkedShapesLast = (settings: PspSettingOf[]) =>
  [...settings].sort((a, b) => Number(a.make !== undefined) - Number(b.make !== undefined));

// --- docker-compose.yml and .env.example ---------------------------------------------------------

/** The gateway's non-secret PSP settings (x-gateway's environment: the API and the workers). */
function composeGatewayEnv(): string[] {
  return PSP_NAMES.flatMap((psp) => {
    const profile = profileOf(psp);
    const port = profile.simulator.port;
    const test = settingsOf(psp, 'test').filter((s) => !s.secret);
    const live = settingsOf(psp, 'live').filter((s) => !s.secret);
    return [
      `    # ${profile.title}, docs/psps/${psp}.md. Test mode: its simulator below, server to server; customers' browsers reach its page on the host.`,
      ...test.map((s) =>
        s.suffix === 'URL'
          ? `    ${s.name}: http://${simulatorService(psp)}:${port}`
          : s.suffix === 'PAGE_URL'
            ? `    ${s.name}: \${${s.name}:-http://localhost:${port}}`
            : `    ${s.name}: ${quoted(s.default)}`,
      ),
      `    # Live mode: the terminal ${profile.title} gave you (empty ${pspSettingName(psp, 'live', 'URL')}: no live payments there).`,
      ...live.map((s) => `    ${s.name}: \${${s.name}:-}`),
    ];
  });
}

/** The PSPs' secret settings, the workers' alone (x-bank-secrets): test mode's required (the simulators check them), live mode's optional. */
function composeBankSecrets(): string[] {
  return pspSettings()
    .filter((s) => s.secret)
    .map((s) => (s.mode === 'test' ? `  ${s.name}: ${required(s)}` : `  ${s.name}: \${${s.name}:-}`));
}

/** One simulator service per PSP. */
function composeSimulators(): string[] {
  return PSP_NAMES.flatMap((psp, i) => {
    const profile = profileOf(psp);
    const port = profile.simulator.port;
    const service = simulatorService(psp);
    const own = settingsOf(psp, 'test').filter((s) => !['URL', 'PAGE_URL'].includes(s.suffix));
    return [
      ...(i === 0 ? [] : ['']),
      `  # The test-mode bank of ${profile.title} (docs/psps/${psp}.md): the simulator speaking its protocol (npm run bank-sim), its own process and state.`,
      `  ${service}:`,
      '    image: dargah:0.1.0',
      '    build: .',
      '    read_only: true',
      '    tmpfs:',
      '      - /tmp',
      '    volumes:',
      `      - ${service}-data:/var/lib/dargah`,
      '    command: ["bank-sim"]',
      '    environment:',
      `      BANK_SIM_PROTOCOL: ${psp}`,
      '      BANK_SIM_HOST: 0.0.0.0',
      `      BANK_SIM_PORT: "${port}"`,
      `      BANK_SIM_STATE_FILE: /var/lib/dargah/${service}.jsonl`,
      `      # The values the gateway's ${own.map((s) => s.name).join(', ')} hold; no BANK_SIM_ADMIN_TOKEN: its admin endpoints (fault switches, listings) do not exist here.`,
      ...own.map((s) => `      BANK_SIM_${s.suffix}: ${s.secret ? required(s) : quoted(s.default)}`),
      "      # The image's HEALTHCHECK asks this (the API's /healthz by default).",
      `      HEALTHCHECK_URL: http://127.0.0.1:${port}/healthz`,
      "      # Customers go back to the gateway's origin only.",
      '      BANK_SIM_REDIRECT_ORIGINS: ${PUBLIC_BASE_URL:-http://localhost:3000}',
      '    ports:',
      `      # Customers' browsers open its payment page here (${pspSettingName(psp, 'test', 'PAGE_URL')}).`,
      `      - "127.0.0.1:${port}:${port}"`,
      '    depends_on:',
      '      migrate:',
      '        condition: service_completed_successfully',
      '    restart: unless-stopped',
    ];
  });
}

const composeVolumes = () => PSP_NAMES.map((psp) => `  ${simulatorService(psp)}-data:`);
/** The header's list of the simulators' secrets. */
const composeSecretComments = () =>
  pspSettings()
    .filter((s) => s.secret && s.mode === 'test')
    .map((s) =>
      s.make === undefined
        ? `#   ${s.name.padEnd(21)} ${s.psp}'s simulator's ${s.suffix.toLowerCase().replace(/_/g, ' ')}, sent by the worker on every call to it`
        : `#   ${s.name.padEnd(21)} ${s.psp}'s simulator's ${s.suffix.toLowerCase().replace(/_/g, ' ')}, ${s.make.shape}: ${s.make.command}`,
    );
const envExampleSecrets = () =>
  checkedShapesLast(pspSettings().filter((s) => s.secret && s.mode === 'test')).flatMap((s) => [
    ...makeComment(s, ''),
    `${s.name}=`,
  ]);

/** deploy/systemd/worker.env.example: live mode's PSP secrets (a systemd host runs the production's live mode). */
const systemdWorkerSecrets = () =>
  pspSettings()
    .filter((s) => s.secret && s.mode === 'live')
    .map((s) => `${s.name}=`);

// --- the Helm chart -------------------------------------------------------------------------------

/** values.yaml's `config`: every non-secret PSP setting; test mode's address is the chart's simulator's when it runs (configmap.yaml). */
function helmConfig(): string[] {
  return PSP_NAMES.flatMap((psp) => {
    const profile = profileOf(psp);
    return [
      `  # ${profile.title} (docs/psps/${psp}.md): live when ${pspSettingName(psp, 'live', 'URL')} is set (its secrets in the Secret);`,
      `  # test payments reach ${psp} at ${pspSettingName(psp, 'test', 'URL')}: empty here, it is the chart's own simulator when bankSim runs it.`,
      ...pspSettings()
        .filter((s) => s.psp === psp && !s.secret)
        .map((s) => `  ${s.name}: ${quoted(s.mode === 'test' && s.suffix !== 'URL' ? s.default : '')}`),
    ];
  });
}

const helmSecrets = () =>
  checkedShapesLast(pspSettings().filter((s) => s.secret)).flatMap((s) => [
    ...(s.mode === 'test' ? makeComment(s, '    ') : []),
    `    ${s.name}: ""`,
  ]);

function helmSimulatorValues(): string[] {
  return PSP_NAMES.flatMap((psp) => [
    `  # ${profileOf(psp).title}'s (BANK_SIM_PROTOCOL=${psp}, docs/psps/${psp}.md)`,
    `  ${psp}:`,
    '    enabled: true',
  ]);
}

/** configmap.yaml: each running simulator's address, unless the operator gave one. */
function helmConfigmapUrls(): string[] {
  return PSP_NAMES.flatMap((psp) => {
    const url = pspSettingName(psp, 'test', 'URL');
    return [
      `  {{- if and .Values.bankSim.enabled .Values.bankSim.${psp}.enabled (not $config.${url}) }}`,
      `  {{- $_ := set $config "${url}" (printf "http://%s-${simulatorService(psp)}:${profileOf(psp).simulator.port}" (include "dargah.name" .)) }}`,
      '  {{- end }}',
    ];
  });
}

/** _helpers.tpl: the simulators a test environment runs, with the settings each is given from the ConfigMap's values and the Secret. */
function helmSimulatorList(): string[] {
  return PSP_NAMES.flatMap((psp) => {
    const own = settingsOf(psp, 'test').filter((s) => !['URL', 'PAGE_URL'].includes(s.suffix));
    const config = own
      .filter((s) => !s.secret)
      .map((s) => `(dict "env" "BANK_SIM_${s.suffix}" "value" (index $.Values.config "${s.name}"))`);
    const secrets = own.filter((s) => s.secret).map((s) => `(dict "env" "BANK_SIM_${s.suffix}" "key" "${s.name}")`);
    return [
      `{{- if and .Values.bankSim.enabled .Values.bankSim.${psp}.enabled -}}`,
      `{{- $sims = append $sims (dict "role" "${simulatorService(psp)}" "protocol" "${psp}" "port" ${profileOf(psp).simulator.port} "values" (list ${config.join(' ')}) "secrets" (list ${secrets.join(' ')})) -}}`,
      '{{- end -}}',
    ];
  });
}

const helmWorkerSecrets = () => [
  `{{- $optional = list ${pspSettings()
    .filter((s) => s.secret)
    .map((s) => quoted(s.name))
    .join(' ')} -}}`,
];

// --- docs/psps/README.md --------------------------------------------------------------------------

const minutes = (ms: number) => `${ms / 60_000} min`;

function docsConnectors(): string[] {
  return [
    '| PSP | name | folder | protocol | page |',
    '|---|---|---|---|---|',
    ...PSP_NAMES.map(
      (psp) =>
        `| ${profileOf(psp).title} | \`${psp}\` | \`src/psps/${psp}/\` | ${profileOf(psp).protocol} | [${psp}.md](${psp}.md) |`,
    ),
  ];
}

function docsCardRestriction(): string[] {
  return [
    '| PSP | verify names the card | card restriction |',
    '|---|---|---|',
    ...PSP_NAMES.map((psp) =>
      profileOf(psp).namesCardAtVerify
        ? `| \`${psp}\` | yes ([${psp}.md](${psp}.md)) | enforced by Dargah; another card is reversed, \`card_not_allowed\` |`
        : `| \`${psp}\` | no ([${psp}.md](${psp}.md)) | cannot be enforced: restricted payments are never routed here |`,
    ),
  ];
}

function docsCapabilities(): string[] {
  return [
    '| PSP | captured at | reversible after verify | unverified given back after | refund | inquiry | daily report |',
    '|---|---|---|---|---|---|---|',
    ...PSP_NAMES.map((psp) => {
      const c = profileOf(psp).capabilities;
      return `| \`${psp}\` | ${CAPTURE_WORDS[c.capture]} | ${minutes(c.reversalWindowMs)} | ${minutes(c.unverifiedReversalMs)} | ${c.refund === 'partial' ? 'all or part' : 'none'} | ${c.inquiry ? 'yes' : 'no'} | ${c.dailyReport ? 'yes' : 'no'} |`;
    }),
  ];
}

/** Every generated block: its file and its lines. */
export const GENERATED_BLOCKS: readonly { file: string; block: string; lines: () => string[] }[] = [
  { file: 'docker-compose.yml', block: 'psp-secret-comments', lines: composeSecretComments },
  { file: 'docker-compose.yml', block: 'psp-gateway-env', lines: composeGatewayEnv },
  { file: 'docker-compose.yml', block: 'psp-bank-secrets', lines: composeBankSecrets },
  { file: 'docker-compose.yml', block: 'psp-simulators', lines: composeSimulators },
  { file: 'docker-compose.yml', block: 'psp-volumes', lines: composeVolumes },
  { file: '.env.example', block: 'psp-secrets', lines: envExampleSecrets },
  { file: 'deploy/systemd/worker.env.example', block: 'psp-secrets', lines: systemdWorkerSecrets },
  { file: 'deploy/helm/dargah/values.yaml', block: 'psp-config', lines: helmConfig },
  { file: 'deploy/helm/dargah/values.yaml', block: 'psp-secrets', lines: helmSecrets },
  { file: 'deploy/helm/dargah/values.yaml', block: 'psp-simulators', lines: helmSimulatorValues },
  { file: 'deploy/helm/dargah/templates/configmap.yaml', block: 'psp-simulator-urls', lines: helmConfigmapUrls },
  { file: 'deploy/helm/dargah/templates/_helpers.tpl', block: 'psp-simulators', lines: helmSimulatorList },
  { file: 'deploy/helm/dargah/templates/_helpers.tpl', block: 'psp-worker-secrets', lines: helmWorkerSecrets },
  { file: 'docs/psps/README.md', block: 'psp-connectors', lines: docsConnectors },
  { file: 'docs/psps/README.md', block: 'psp-card-restriction', lines: docsCardRestriction },
  { file: 'docs/psps/README.md', block: 'psp-capabilities', lines: docsCapabilities },
];

/** Each file with a generated block, as the registry would have it: `{ file: text }`. */
export function generatedFiles(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { file, block, lines } of GENERATED_BLOCKS) {
    out[file] = replaceBlock(out[file] ?? readFileSync(join(root, file), 'utf8'), file, block, lines());
  }
  return out;
}

/** The files whose committed text differs from what the registry gives. */
export function stalePspFiles(root: string): string[] {
  return Object.entries(generatedFiles(root))
    .filter(([file, text]) => readFileSync(join(root, file), 'utf8') !== text)
    .map(([file]) => file);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  if (process.argv.includes('--check')) {
    const stale = stalePspFiles(root);
    if (stale.length > 0) {
      process.stderr.write(`Not what the PSP registry gives: ${stale.join(', ')}. Run npm run generate:psps.\n`);
      process.exit(1);
    }
  } else {
    for (const [file, text] of Object.entries(generatedFiles(root))) writeFileSync(join(root, file), text);
  }
}
