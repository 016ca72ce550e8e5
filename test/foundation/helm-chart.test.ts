/**
 * The Helm chart (deploy/helm/dargah), rendered by Helm and validated offline:
 * every object decodes strictly into the Kubernetes API's own types
 * (tools/k8s-check: no unknown kind, no unknown field), and what the gateway
 * needs holds in the render: probes on the health routes, requests and
 * limits, the image's non-root user on a read-only root file system, the
 * migration job before the rollout, a drain that fits the grace period, every
 * setting of docs/CONFIGURATION.md, and network policies that let only the
 * API be reached from outside.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parse, parseAllDocuments } from 'yaml';
import { ConfigSchema } from '../../src/config.ts';
import { PSP_NAMES, PSP_PROFILES, pspSettingName, pspSettings } from '../../src/psps/profiles.ts';
import { LEGACY_PSP_SETTING_NAMES } from '../../tools/launcher/psp-simulators.ts';
import { provideHelm, provideK8sCheck } from '../../tools/launcher/kubernetes-tools.ts';
import { TEMPORAL_SERVER_VERSION } from '../../tools/launcher/temporal-cluster.ts';
import { heapLimitOption, memoryCeilingMb } from '../../tools/launcher/memory.ts';

const CHART = 'deploy/helm/dargah';
const say = (line: string) => process.stdout.write(`      ${line}\n`);
const SECRETS = [
  'DATABASE_URL=mysql://dargah:db-password-from-vault@mysql.db:3306/dargah',
  'PAGES_CSRF_SECRET=4f3a8065b1e7d2c9a4f8306e5b2d7c1e9a4f8306',
  'DASHBOARD_SECRETS_KEY=9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f',
  'CARD_HASH_KEY=7c1e9a4f8306b5e2d7c1a9f4e830c2b7e1d94f3a',
];
/** The secrets only the worker uses: the PSPs' secret settings (only the worker calls a PSP). */
const PSP_SECRETS = pspSettings()
  .filter((s) => s.secret)
  .map((s) => s.name);
/** The secrets only the API uses besides the pages' and dashboard's: the identity provider's keys (optional: a mode may have none). */
const IDENTITY_SECRETS = ['IDENTITY_API_KEY', 'IDENTITY_SECRET_KEY', 'SANDBOX_IDENTITY_SECRET_KEY'];
/**
 * The direct debit provider's merchant ids: ZarinPal's only credential, to the API and the worker (both make
 * the provider), optional (a mode may have no direct debit).
 */
const DIRECT_DEBIT_SECRETS = ['PAYMAN_MERCHANT_ID', 'SANDBOX_PAYMAN_MERCHANT_ID'];
/** The simulators' Deployments, one per PSP of the registry. */
const SIMULATOR_DEPLOYMENTS = PSP_NAMES.map((psp) => `dargah-bank-sim-${psp}`);
/**
 * Every setting of docs/CONFIGURATION.md: the configuration's besides the PSPs' (and the old BANK_* names
 * it keeps as aliases), and every PSP setting of the registry under pspSettingName's name.
 */
const PSP_SETTING_NAMES = new Set([...pspSettings().map((s) => s.name), ...Object.values(LEGACY_PSP_SETTING_NAMES)]);
const SETTINGS = [
  ...Object.keys(ConfigSchema.properties).filter((name) => !PSP_SETTING_NAMES.has(name)),
  ...pspSettings().map((s) => s.name),
];

interface Probe {
  httpGet?: { path: string; port: string | number };
}
interface Container {
  name: string;
  args?: string[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: {
    readOnlyRootFilesystem?: boolean;
    allowPrivilegeEscalation?: boolean;
    capabilities?: { drop?: string[] };
  };
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  env?: {
    name: string;
    value?: string;
    valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean } };
  }[];
  lifecycle?: { preStop?: { sleep?: { seconds: number } } };
  ports?: { name: string; containerPort: number }[];
}
interface PodSpec {
  containers: Container[];
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
  terminationGracePeriodSeconds?: number;
}
interface Peer {
  ipBlock?: { cidr: string; except?: string[] };
  podSelector?: unknown;
  namespaceSelector?: unknown;
}
interface K8sObject {
  kind: string;
  metadata: { name: string; annotations?: Record<string, string> };
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  spec?: {
    template?: { spec: PodSpec };
    podSelector?: { matchLabels?: Record<string, string>; matchExpressions?: { key: string; values: string[] }[] };
    policyTypes?: string[];
    ingress?: { from?: Peer[]; ports?: { port: number }[] }[];
    egress?: { to?: Peer[]; ports?: { port: number }[] }[];
    scaleTargetRef?: { kind: string; name: string };
    selector?: { matchLabels: Record<string, string> };
    minAvailable?: number;
  };
}

describe('the Helm chart (deploy/helm/dargah)', function () {
  this.timeout(1_200_000);
  let helm: string;
  let check: string;

  before(() => {
    // Built once into the cache (minutes on a first run); npm test builds them before the suite.
    helm = provideHelm();
    check = provideK8sCheck(say);
  });

  function render(sets: string[]): { status: number | null; stdout: string; stderr: string } {
    // The oldest Kubernetes the chart supports (Chart.yaml's kubeVersion: the kubelet's preStop sleep).
    return spawnSync(
      helm,
      [
        'template',
        'dargah',
        CHART,
        '--namespace',
        'payments',
        '--kube-version',
        '1.30.0',
        ...sets.flatMap((s) => ['--set', s]),
      ],
      { encoding: 'utf8' },
    );
  }
  function objects(sets: string[]): K8sObject[] {
    const rendered = render(sets);
    assert.equal(rendered.status, 0, rendered.stderr);
    return parseAllDocuments(rendered.stdout)
      .map((d) => d.toJS() as K8sObject)
      .filter((o) => o !== null);
  }
  const withSecrets = (extra: string[] = []) => [...SECRETS.map((s) => `secrets.values.${s}`), ...extra];
  const find = (all: K8sObject[], kind: string, name: string) => {
    const found = all.find((o) => o.kind === kind && o.metadata.name === name);
    assert.ok(found !== undefined, `${kind} ${name} is rendered`);
    return found;
  };

  for (const [what, sets] of [
    ['the defaults', withSecrets()],
    [
      "a test environment with every PSP's bank simulator, an existing Secret and no autoscaling",
      [
        'bankSim.enabled=true',
        'secrets.existingSecret=dargah-from-vault',
        'api.autoscaling.enabled=false',
        'config.WEBHOOK_ALLOWED_PORTS=8443\\,9443',
      ],
    ],
  ] as const) {
    it(`renders ${what} into objects that decode strictly into the Kubernetes API's types: zero errors, zero unknown fields`, () => {
      const rendered = render([...sets]);
      assert.equal(rendered.status, 0, rendered.stderr);
      const checked = spawnSync(check, [], { input: rendered.stdout, encoding: 'utf8' });
      const report = JSON.parse(checked.stdout) as { objects: { kind: string; name: string }[]; errors: string[] };
      assert.deepEqual(report.errors, []);
      assert.equal(checked.status, 0, checked.stderr);
      assert.equal(
        report.objects.length,
        parseAllDocuments(rendered.stdout).filter((d) => d.toJS() !== null).length,
        'every rendered object was checked',
      );
      for (const kind of ['Deployment', 'Service', 'ConfigMap', 'Job', 'PodDisruptionBudget', 'NetworkPolicy'])
        assert.ok(
          report.objects.some((o) => o.kind === kind),
          kind,
        );
    });
  }

  it('the check refuses an unknown field, an unknown kind and a wrongly typed value', () => {
    const wrong = [
      'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a}\nspec:\n  replicaz: 2\n',
      'apiVersion: v1\nkind: Widget\nmetadata: {name: b}\n',
      'apiVersion: v1\nkind: Service\nmetadata: {name: c}\nspec:\n  ports: [{port: eighty}]\n',
    ];
    const checked = spawnSync(check, [], { input: wrong.join('---\n'), encoding: 'utf8' });
    assert.equal(checked.status, 1);
    const report = JSON.parse(checked.stdout) as { errors: string[] };
    assert.equal(report.errors.length, 3);
    assert.match(report.errors[0]!, /unknown field "spec.replicaz"/);
    assert.match(report.errors[1]!, /no kind "Widget"/);
    assert.match(report.errors[2]!, /cannot unmarshal string .* of type int32/);
  });

  it('refuses to render without the secrets it needs', () => {
    const refused = render([]);
    assert.notEqual(refused.status, 0);
    assert.match(refused.stderr, /DATABASE_URL/);
    // Each secret production mode refuses to start without (docs/SECURITY.md#what-the-operator-must-do) is required here too.
    for (const name of ['PAGES_CSRF_SECRET', 'DASHBOARD_SECRETS_KEY', 'CARD_HASH_KEY']) {
      const without = render(SECRETS.filter((s) => !s.startsWith(`${name}=`)).map((s) => `secrets.values.${s}`));
      assert.notEqual(without.status, 0, `refused without ${name}`);
      assert.match(without.stderr, new RegExp(`secrets\\.values\\.${name}`));
    }
  });

  it("gives every Deployment and the migration job probes on the health routes, requests and limits, the image's non-root user and a read-only root file system", () => {
    const all = objects(withSecrets(['bankSim.enabled=true']));
    const dockerfile = readFileSync('Dockerfile', 'utf8');
    const imageUser = Number(/^USER (\d+):\d+$/m.exec(dockerfile)?.[1]);
    const healthRoutes = readFileSync('src/api/routes/health.ts', 'utf8');
    const pods = all.filter((o) => o.kind === 'Deployment' || o.kind === 'Job');
    assert.deepEqual(
      pods.map((o) => `${o.kind}/${o.metadata.name}`).sort(),
      [
        'Deployment/dargah-api',
        ...SIMULATOR_DEPLOYMENTS.map((d) => `Deployment/${d}`),
        'Deployment/dargah-worker',
        'Job/dargah-migrate',
      ].sort(),
    );
    for (const pod of pods) {
      const spec = pod.spec!.template!.spec;
      assert.equal(spec.securityContext?.runAsNonRoot, true, pod.metadata.name);
      assert.equal(spec.securityContext?.runAsUser, imageUser, `${pod.metadata.name} runs as the image's user`);
      for (const c of spec.containers) {
        assert.equal(c.securityContext?.readOnlyRootFilesystem, true, c.name);
        assert.equal(c.securityContext?.allowPrivilegeEscalation, false, c.name);
        assert.deepEqual(c.securityContext?.capabilities?.drop, ['ALL'], c.name);
        for (const side of ['requests', 'limits'] as const)
          for (const resource of ['cpu', 'memory'])
            assert.ok(c.resources?.[side]?.[resource], `${c.name} ${side}.${resource}`);
        assert.deepEqual(
          c.args,
          [pod.metadata.name.replace(/^dargah-/, '').replace(/^bank-sim-.*$/, 'bank-sim')],
          `${c.name} runs its role of the image`,
        );
        if (pod.kind === 'Job') continue;
        assert.ok(
          c.readinessProbe?.httpGet && c.livenessProbe?.httpGet,
          `${c.name} has HTTP readiness and liveness probes`,
        );
      }
    }
    const api = find(all, 'Deployment', 'dargah-api').spec!.template!.spec;
    assert.equal(api.containers[0]!.readinessProbe!.httpGet!.path, '/readyz');
    assert.equal(api.containers[0]!.livenessProbe!.httpGet!.path, '/healthz');
    for (const route of ['/readyz', '/healthz'])
      assert.ok(healthRoutes.includes(`'${route}'`), `the API serves ${route}`);
    const worker = find(all, 'Deployment', 'dargah-worker').spec!.template!.spec;
    const metricsPort = worker.containers[0]!.ports!.find((p) => p.name === 'metrics')!.containerPort;
    assert.equal(worker.containers[0]!.livenessProbe!.httpGet!.path, '/metrics');
    assert.equal(worker.containers[0]!.livenessProbe!.httpGet!.port, 'metrics');
    assert.equal(metricsPort, Number(find(all, 'ConfigMap', 'dargah-config').data!.WORKER_METRICS_PORT));
    assert.equal(
      find(all, 'ConfigMap', 'dargah-config').data!.METRICS_HOST,
      '0.0.0.0',
      "the kubelet reaches /metrics on the pod's address",
    );
  });

  it("bounds the API's and the worker's memory by configuration: the heap limit npm start gives them (tools/launcher/memory.ts) in NODE_OPTIONS, under a memory limit that holds it", () => {
    const all = objects(withSecrets());
    const mebibytes = (quantity: string) =>
      Number(/^(\d+)(Mi|Gi)$/.exec(quantity)![1]) * (quantity.endsWith('Gi') ? 1024 : 1);
    for (const role of ['api', 'worker'] as const) {
      const container = find(all, 'Deployment', `dargah-${role}`).spec!.template!.spec.containers[0]!;
      assert.equal(container.env?.find((e) => e.name === 'NODE_OPTIONS')?.value, heapLimitOption(role), role);
      assert.ok(
        mebibytes(container.resources!.limits!.memory!) >= memoryCeilingMb(role),
        `${role}: limits.memory ${container.resources!.limits!.memory} holds its ${memoryCeilingMb(role)} MiB`,
      );
    }
    assert.equal(
      find(all, 'ConfigMap', 'dargah-config').data!.WORKER_MAX_CACHED_WORKFLOWS,
      String(ConfigSchema.properties.WORKER_MAX_CACHED_WORKFLOWS.default),
    );
  });

  it("drains within the grace period: the API pauses for the Service, then finishes its requests; the worker gets at least the systemd unit's stop timeout", () => {
    const all = objects(withSecrets());
    const api = find(all, 'Deployment', 'dargah-api').spec!.template!.spec;
    const pause = api.containers[0]!.lifecycle?.preStop?.sleep?.seconds ?? 0;
    assert.ok(pause > 0, "a preStop pause (the image has no shell: the kubelet's own sleep)");
    const apiStop = Number(/TimeoutStopSec=(\d+)s/.exec(readFileSync('deploy/systemd/dargah-api.service', 'utf8'))![1]);
    assert.ok(
      api.terminationGracePeriodSeconds! >= pause + apiStop,
      `API grace ${api.terminationGracePeriodSeconds} s ≥ ${pause} s pause + ${apiStop} s drain`,
    );
    const worker = find(all, 'Deployment', 'dargah-worker').spec!.template!.spec;
    const workerStop = Number(
      /TimeoutStopSec=(\d+)s/.exec(readFileSync('deploy/systemd/dargah-worker.service', 'utf8'))![1],
    );
    assert.ok(
      worker.terminationGracePeriodSeconds! >= workerStop,
      `worker grace ${worker.terminationGracePeriodSeconds} s ≥ ${workerStop} s`,
    );
  });

  it('migrates before every install and upgrade, scales the API on CPU, and keeps one API and one worker through disruptions', () => {
    const all = objects(withSecrets());
    const job = find(all, 'Job', 'dargah-migrate');
    assert.equal(job.metadata.annotations!['helm.sh/hook'], 'pre-install,pre-upgrade');
    for (const hookObject of [
      find(all, 'ConfigMap', 'dargah-migrate-config'),
      find(all, 'Secret', 'dargah-migrate-secrets'),
    ]) {
      assert.ok(
        Number(hookObject.metadata.annotations!['helm.sh/hook-weight']) <
          Number(job.metadata.annotations!['helm.sh/hook-weight']),
        `${hookObject.metadata.name} exists before the job`,
      );
    }
    const hpa = find(all, 'HorizontalPodAutoscaler', 'dargah-api');
    assert.deepEqual(hpa.spec!.scaleTargetRef, { apiVersion: 'apps/v1', kind: 'Deployment', name: 'dargah-api' });
    for (const role of ['api', 'worker']) {
      const pdb = find(all, 'PodDisruptionBudget', `dargah-${role}`);
      assert.ok(pdb.spec!.minAvailable! >= 1);
      assert.equal(pdb.spec!.selector!.matchLabels['app.kubernetes.io/component'], role);
    }
    assert.ok(
      !all.some((o) => o.metadata.name.includes('bank-sim')),
      'no bank simulator unless a test environment asks for it',
    );
  });

  it('wires every setting of docs/CONFIGURATION.md through the ConfigMap or the Secret, secrets only in the Secret', () => {
    const all = objects(withSecrets());
    const config = find(all, 'ConfigMap', 'dargah-config').data!;
    const secret = find(all, 'Secret', 'dargah-secrets').stringData!;
    // The migrations' own user goes to the migration Job alone: the API and workers never hold DDL grants.
    const migrateOnly = find(
      objects(withSecrets(['secrets.migrateDatabaseUrl=mysql://dargah_migrate:m@mysql:3306/dargah'])),
      'Secret',
      'dargah-migrate-secrets',
    ).stringData!;
    assert.ok(
      'MIGRATE_DATABASE_URL' in migrateOnly &&
        !('MIGRATE_DATABASE_URL' in secret) &&
        !('MIGRATE_DATABASE_URL' in config),
    );
    const wired = [...Object.keys(config), ...Object.keys(secret), 'MIGRATE_DATABASE_URL'].sort();
    assert.deepEqual(wired, [...SETTINGS].sort());
    for (const name of [
      'DATABASE_URL',
      'PAGES_CSRF_SECRET',
      'DASHBOARD_SECRETS_KEY',
      'SMTP_URL',
      ...PSP_SECRETS,
      ...IDENTITY_SECRETS,
      ...DIRECT_DEBIT_SECRETS,
    ])
      assert.ok(name in secret && !(name in config), `${name} is a secret`);
    for (const role of ['api', 'worker']) {
      const refs = find(all, 'Deployment', `dargah-${role}`).spec!.template!.spec.containers[0]!.envFrom!;
      assert.deepEqual(
        refs.map((r) => r.configMapRef?.name ?? r.secretRef?.name),
        ['dargah-config'],
        `${role}: every setting of the ConfigMap, the Secret's one key at a time`,
      );
    }
  });

  /** The Secret's keys a Deployment's container is given, by the Secret they come from. */
  const secretKeysOf = (all: K8sObject[], role: string) =>
    (find(all, 'Deployment', `dargah-${role}`).spec!.template!.spec.containers[0]!.env ?? []).flatMap((e) =>
      e.valueFrom?.secretKeyRef === undefined
        ? []
        : [
            {
              variable: e.name,
              secret: e.valueFrom.secretKeyRef.name,
              key: e.valueFrom.secretKeyRef.key,
              optional: e.valueFrom.secretKeyRef.optional,
            },
          ],
    );

  for (const [what, sets, secretName] of [
    ["the chart's Secret", withSecrets(), 'dargah-secrets'],
    ['an existing Secret', ['secrets.existingSecret=dargah-from-vault'], 'dargah-from-vault'],
  ] as const) {
    it(`gives each pod only its own secrets from ${what}: the PSP credentials to the worker alone, the pages' and dashboard's secrets to the API alone, the Payman merchant ids to both, none to the migrations`, () => {
      const all = objects([...sets]);
      const api = secretKeysOf(all, 'api');
      const worker = secretKeysOf(all, 'worker');
      for (const ref of [...api, ...worker]) {
        assert.equal(ref.variable, ref.key, 'each variable is its own key');
        assert.equal(ref.secret, secretName, `${ref.key} from ${secretName}`);
      }
      const names = (refs: typeof api) => refs.map((r) => r.key).sort();
      assert.deepEqual(
        names(api),
        [
          'CARD_HASH_KEY',
          'DASHBOARD_SECRETS_KEY',
          'DATABASE_URL',
          'PAGES_CSRF_SECRET',
          'SMTP_URL',
          ...IDENTITY_SECRETS,
          ...DIRECT_DEBIT_SECRETS,
        ].sort(),
      );
      assert.deepEqual(
        names(worker),
        ['CARD_HASH_KEY', 'DATABASE_URL', 'SMTP_URL', ...PSP_SECRETS, ...DIRECT_DEBIT_SECRETS].sort(),
      );
      // What production mode refuses to start without is never optional; a PSP's password is (a PSP may not be
      // configured), and so are the identity provider's keys.
      for (const ref of [...api, ...worker])
        assert.equal(
          ref.optional === true,
          PSP_SECRETS.includes(ref.key) || IDENTITY_SECRETS.includes(ref.key) || DIRECT_DEBIT_SECRETS.includes(ref.key),
          `${ref.key}: optional only for a PSP's, the identity provider's or the direct debit provider's credential`,
        );
      const migrate = find(all, 'Job', 'dargah-migrate').spec!.template!.spec.containers[0]!;
      const migrateSecret = all.find((o) => o.kind === 'Secret' && o.metadata.name === 'dargah-migrate-secrets');
      if (migrateSecret !== undefined)
        assert.deepEqual(
          Object.keys(migrateSecret.stringData!),
          ['DATABASE_URL'],
          'the migrations get the database, nothing else',
        );
      const migrateRefs = (migrate.env ?? [])
        .filter((e) => e.valueFrom?.secretKeyRef !== undefined)
        .map((e) => e.valueFrom!.secretKeyRef!.key);
      for (const key of [
        ...PSP_SECRETS,
        ...IDENTITY_SECRETS,
        ...DIRECT_DEBIT_SECRETS,
        'PAGES_CSRF_SECRET',
        'DASHBOARD_SECRETS_KEY',
        'CARD_HASH_KEY',
        'SMTP_URL',
      ])
        assert.ok(!migrateRefs.includes(key), `migrate is not given ${key}`);
      assert.ok(
        !(migrate.envFrom ?? []).some((r) => r.secretRef?.name === secretName),
        'the migrations do not read the whole Secret',
      );
    });
  }

  it("lets only the API be reached from outside; the worker reaches MySQL, Temporal and the internet's PSPs and webhook receivers, never the cluster's other addresses", () => {
    const all = objects(withSecrets(['bankSim.enabled=true']));
    const policies = all.filter((o) => o.kind === 'NetworkPolicy');
    const deny = find(all, 'NetworkPolicy', 'dargah-default-deny');
    assert.deepEqual(deny.spec!.policyTypes, ['Ingress', 'Egress']);
    assert.equal(deny.spec!.ingress, undefined);
    assert.equal(deny.spec!.egress, undefined);
    assert.deepEqual(deny.spec!.podSelector!.matchLabels, {
      'app.kubernetes.io/name': 'dargah',
      'app.kubernetes.io/instance': 'dargah',
    });
    // Ingress open to any peer (no `from`) exists only for the API's port.
    const openIngress = policies.flatMap((p) =>
      (p.spec!.ingress ?? []).filter((rule) => rule.from === undefined).map((rule) => ({ policy: p, rule })),
    );
    assert.equal(openIngress.length, 1);
    assert.equal(openIngress[0]!.policy.spec!.podSelector!.matchLabels!['app.kubernetes.io/component'], 'api');
    assert.deepEqual(
      openIngress[0]!.rule.ports!.map((p) => p.port),
      [3000],
    );
    const worker = find(all, 'NetworkPolicy', 'dargah-worker');
    assert.deepEqual(
      worker.spec!.ingress!.flatMap((r) => r.ports!.map((p) => p.port)),
      [9465],
      'into the worker: its metrics only',
    );
    const internet = worker.spec!.egress!.find((r) => r.to?.some((peer) => peer.ipBlock?.cidr === '0.0.0.0/0'));
    assert.ok(internet !== undefined);
    assert.deepEqual(internet.ports!.map((p) => p.port).sort(), [443, 80].sort());
    for (const privateRange of ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'])
      assert.ok(internet.to![0]!.ipBlock!.except!.includes(privateRange), `not into ${privateRange}`);
    const backends = find(all, 'NetworkPolicy', 'dargah-backends');
    assert.deepEqual(
      backends.spec!.podSelector!.matchExpressions!.find((e) => e.key === 'app.kubernetes.io/component')!.values,
      ['api', 'worker', 'migrate'],
    );
    assert.deepEqual(
      backends.spec!.egress!.flatMap((r) => r.ports!.map((p) => p.port)),
      [53, 53, 3306, 7233],
      'DNS, MySQL, Temporal',
    );
    const extraPorts = objects(withSecrets(['config.WEBHOOK_ALLOWED_PORTS=8443\\,9443']));
    const widened = find(extraPorts, 'NetworkPolicy', 'dargah-worker').spec!.egress!.find((r) =>
      r.to?.some((peer) => peer.ipBlock?.cidr === '0.0.0.0/0'),
    )!;
    assert.deepEqual(
      widened.ports!.map((p) => p.port).sort(),
      [443, 80, 8443, 9443].sort(),
      'WEBHOOK_ALLOWED_PORTS opens those ports too',
    );
  });

  for (const psp of PSP_NAMES) {
    const role = `bank-sim-${psp}`;
    const url = pspSettingName(psp, 'test', 'URL');
    it(`runs ${psp}'s simulator when a test environment asks for it, test payments at ${psp} pointed at it; without it, no ${psp} simulator in test mode`, () => {
      const without = find(
        objects(withSecrets(['bankSim.enabled=true', `bankSim.${psp}.enabled=false`])),
        'ConfigMap',
        'dargah-config',
      ).data!;
      assert.equal(without[url], '', `no address of a ${psp} simulator nobody runs`);
      const all = objects(withSecrets(['bankSim.enabled=true']));
      const config = find(all, 'ConfigMap', 'dargah-config').data!;
      const sim = find(all, 'Deployment', `dargah-${role}`).spec!.template!.spec.containers[0]!;
      const env = Object.fromEntries(sim.env!.map((e) => [e.name, e.value ?? e.valueFrom]));
      assert.equal(env.BANK_SIM_PROTOCOL, psp);
      for (const setting of pspSettings().filter(
        (s) => s.psp === psp && s.mode === 'test' && !['URL', 'PAGE_URL'].includes(s.suffix),
      )) {
        const simulatorSetting = `BANK_SIM_${setting.suffix}`;
        if (setting.secret)
          assert.deepEqual(
            env[simulatorSetting],
            { secretKeyRef: { name: 'dargah-secrets', key: setting.name } },
            `${simulatorSetting}: what the gateway sends, from the Secret`,
          );
        else
          assert.equal(
            env[simulatorSetting],
            config[setting.name],
            `${simulatorSetting}: the gateway's ${setting.name}`,
          );
      }
      assert.equal(env.BANK_SIM_ADMIN_TOKEN, undefined, 'no admin endpoints');
      const port = sim.ports!.find((p) => p.name === 'http')!.containerPort;
      assert.equal(port, PSP_PROFILES[psp].simulator.port, "its profile's port");
      assert.equal(String(port), env.BANK_SIM_PORT);
      assert.equal(
        config[url],
        `http://dargah-${role}:${port}`,
        `the gateway's test-mode ${psp} is the chart's simulator`,
      );
      assert.ok(find(all, 'Service', `dargah-${role}`) !== undefined);
      assert.equal(
        find(
          objects(withSecrets(['bankSim.enabled=true', `config.${url}=http://${psp}.sandbox:${port}`])),
          'ConfigMap',
          'dargah-config',
        ).data![url],
        `http://${psp}.sandbox:${port}`,
        "an operator's own address wins",
      );
      // The worker may reach it (verify, settle), the API too; nothing else.
      const worker = find(all, 'NetworkPolicy', 'dargah-worker');
      const toSim = worker.spec!.egress!.find((r) =>
        r.to?.some((peer) => JSON.stringify(peer.podSelector ?? {}).includes(`"${role}"`)),
      );
      assert.deepEqual(
        toSim?.ports?.map((p) => p.port),
        [port],
      );
      assert.deepEqual(
        find(all, 'NetworkPolicy', `dargah-${role}`).spec!.ingress!.flatMap((r) => r.ports!.map((p) => p.port)),
        [port],
      );
      assert.deepEqual(
        find(all, 'NetworkPolicy', `dargah-api-to-${role}`).spec!.egress!.flatMap((r) => r.ports!.map((p) => p.port)),
        [port],
      );
      // Live: its secrets only in the Secret.
      const liveSecrets = pspSettings().filter((s) => s.psp === psp && s.mode === 'live' && s.secret);
      const secret = find(
        objects(withSecrets(liveSecrets.map((s) => `secrets.values.${s.name}=from-${psp}`))),
        'Secret',
        'dargah-secrets',
      ).stringData!;
      for (const s of liveSecrets) {
        assert.equal(secret[s.name], `from-${psp}`);
        assert.ok(!(s.name in config), `${s.name} is not in the ConfigMap`);
      }
    });
  }

  it('runs Temporal from its official chart with values for PostgreSQL at the server version the cluster suite runs', () => {
    const values = parse(readFileSync('deploy/helm/temporal-values.yaml', 'utf8')) as {
      server: {
        image: { tag: string };
        config: {
          persistence: Record<
            'default' | 'visibility',
            { driver: string; sql: { driver: string; existingSecret: string } }
          >;
        };
      };
      elasticsearch: { enabled: boolean };
    };
    assert.equal(values.server.image.tag, TEMPORAL_SERVER_VERSION.slice(1));
    for (const store of ['default', 'visibility'] as const) {
      assert.equal(values.server.config.persistence[store].driver, 'sql');
      assert.equal(values.server.config.persistence[store].sql.driver, 'postgres12');
      assert.ok(
        values.server.config.persistence[store].sql.existingSecret,
        'the password from a Secret, not the values',
      );
    }
    assert.equal(values.elasticsearch.enabled, false);
  });
});
