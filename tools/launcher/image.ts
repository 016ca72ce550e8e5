/**
 * Builds the production image (the Dockerfile) on a machine without a Docker
 * engine or Docker Hub, as `npm run test:image` needs it: Debian's buildah
 * builds it without a daemon and podman runs it (both installed with apt-get
 * when missing). The Dockerfile's two bases are made here from Debian's
 * packages (mmdebstrap) and the launcher's pinned Node 24 (node-runtime.mjs):
 *   build base:   Debian's minimal system, Node and npm (the build stages run npm).
 *   runtime base: the C and C++ runtime libraries and Node, nothing else.
 * Everything lives in the cache outside the checkout (cacheDir()/image), as
 * the Temporal CLI does: the bases are made once per Node version.
 */
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cachedNodePath, NODE_VERSION, provideNode } from './node-runtime.mjs';
import { provideDebianPackage } from './debian-package.ts';
import { cacheDir, PrerequisiteError } from './temporal-cli.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** npm in the build base (the build stages run `npm ci` with it). */
export const NPM_VERSION = '11.6.2';
const DEBIAN_SUITE = 'bookworm';
const DEBIAN_MIRROR = 'http://deb.debian.org/debian';
export const BUILD_BASE = `localhost/dargah-build-base:node${NODE_VERSION}`;
export const RUNTIME_BASE = `localhost/dargah-runtime-base:node${NODE_VERSION}`;

/** Where the bases, podman's storage and its configuration live. */
export const imageWorkspace = () => join(cacheDir(), 'image');

/**
 * The environment buildah and podman run with: their configuration in our
 * workspace, not /etc. The machine's cgroups may be v1: runc, cgroupfs, and no
 * default ulimits (podman's would be refused there).
 */
export function containerEnvironment(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const work = imageWorkspace();
  mkdirSync(work, { recursive: true });
  const containersConf = join(work, 'containers.conf');
  const storageConf = join(work, 'storage.conf');
  writeFileSync(
    containersConf,
    [
      '[containers]',
      'default_ulimits = []',
      '[engine]',
      'cgroup_manager = "cgroupfs"',
      'runtime = "runc"',
      'events_logger = "file"',
      '',
    ].join('\n'),
  );
  writeFileSync(
    storageConf,
    [
      '[storage]',
      'driver = "overlay"',
      `runroot = "${join(work, 'run')}"`,
      `graphroot = "${join(work, 'storage')}"`,
      '',
    ].join('\n'),
  );
  return { ...env, CONTAINERS_CONF: containersConf, CONTAINERS_STORAGE_CONF: storageConf };
}

/** buildah, podman, runc and mmdebstrap, installed with apt-get when missing (as root). */
export function provideImageTools(say: (line: string) => void): void {
  for (const [pkg, path] of [
    ['buildah', '/usr/bin/buildah'],
    ['podman', '/usr/bin/podman'],
    ['runc', '/usr/sbin/runc'],
    ['mmdebstrap', '/usr/bin/mmdebstrap'],
    ['fuse-overlayfs', '/usr/bin/fuse-overlayfs'],
    ['binutils', '/usr/bin/strip'],
  ] as const) {
    const problem = provideDebianPackage(pkg, path, say);
    if (problem !== undefined) throw new PrerequisiteError(problem);
  }
}

function run(command: string, args: string[], options: SpawnSyncOptions & { env: NodeJS.ProcessEnv }): string {
  const result = spawnSync(command, args, {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
    ...options,
  });
  if (result.status !== 0)
    throw new PrerequisiteError(
      `${command} ${args.slice(0, 3).join(' ')} … failed (exit ${result.status ?? result.signal}): see above.`,
    );
  return String(result.stdout ?? '').trim();
}

const imageExists = (env: NodeJS.ProcessEnv, name: string) =>
  spawnSync('podman', ['image', 'exists', name], { env, stdio: 'ignore' }).status === 0;

/** A Debian root file system as a tar file in the workspace, made by mmdebstrap once. */
function debianTar(name: string, args: string[], env: NodeJS.ProcessEnv, say: (line: string) => void): string {
  const tar = join(imageWorkspace(), `${name}.tar`);
  if (existsSync(tar)) return tar;
  say(`Making the ${name} root file system from Debian's ${DEBIAN_SUITE} packages with mmdebstrap (first run only)…`);
  const partial = `${tar}.partial`;
  rmSync(partial, { force: true });
  run('mmdebstrap', ['--quiet', '--format=tar', ...args, DEBIAN_SUITE, partial, DEBIAN_MIRROR], {
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  renameSync(partial, tar);
  return tar;
}

/** An image from a root file system tar file plus a directory tree on top. */
function commitBase(name: string, tar: string, overlay: string, env: NodeJS.ProcessEnv): void {
  const container = run('buildah', ['from', 'scratch'], { env });
  try {
    run('buildah', ['add', '--quiet', container, tar, '/'], { env });
    run('buildah', ['copy', '--quiet', container, `${overlay}/`, '/'], { env });
    run(
      'buildah',
      [
        'config',
        '--env',
        'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
        '--cmd',
        '/usr/local/bin/node',
        container,
      ],
      { env },
    );
    run('buildah', ['commit', '--quiet', container, name], { env });
  } finally {
    spawnSync('buildah', ['rm', container], { env, stdio: 'ignore' });
  }
}

/** The Dockerfile's two bases (BASE and RUNTIME_BASE), made once per Node version. */
export function provideBases(env: NodeJS.ProcessEnv, say: (line: string) => void): { build: string; runtime: string } {
  if (imageExists(env, BUILD_BASE) && imageExists(env, RUNTIME_BASE))
    return { build: BUILD_BASE, runtime: RUNTIME_BASE };
  const work = imageWorkspace();
  // The pinned Node 24 of the launcher's cache, whatever Node runs this (installed first if missing).
  if (!existsSync(cachedNodePath())) provideNode(say, { version: 'v0.0.0', execPath: '' });
  const node = join(work, 'node');
  rmSync(node, { recursive: true, force: true });
  mkdirSync(join(node, 'usr', 'local', 'bin'), { recursive: true });
  writeFileSync(join(node, 'usr', 'local', 'bin', 'node'), readFileSync(cachedNodePath()), { mode: 0o755 });
  // The release binary carries its symbol table and debug sections (18 of its 127 MB): nothing
  // at run time reads them (native addons link against its dynamic symbols, which stay).
  run('strip', ['--strip-unneeded', join(node, 'usr', 'local', 'bin', 'node')], { env });
  const noDocs = [
    '--dpkgopt=path-exclude=/usr/share/doc/*',
    '--dpkgopt=path-exclude=/usr/share/man/*',
    '--dpkgopt=path-exclude=/usr/share/locale/*',
  ];

  if (!imageExists(env, RUNTIME_BASE)) {
    // Unpacked only (no package scripts run): what Node's binary links against. Character set
    // converters (gconv) and docs are never read by it.
    const tar = debianTar(
      'runtime-root',
      [
        '--variant=extract',
        '--include=libc6,libstdc++6,libgcc-s1',
        ...noDocs,
        '--customize-hook=rm -rf "$1"/usr/lib/x86_64-linux-gnu/gconv "$1"/usr/share/doc "$1"/usr/share/lintian "$1"/var/cache/apt "$1"/var/lib/apt/lists',
      ],
      env,
      say,
    );
    say(`Committing ${RUNTIME_BASE}…`);
    commitBase(RUNTIME_BASE, tar, node, env);
  }
  if (!imageExists(env, BUILD_BASE)) {
    const tar = debianTar('build-root', ['--variant=minbase', ...noDocs], env, say);
    const npmTarball = join(work, `npm-${NPM_VERSION}.tgz`);
    if (!existsSync(npmTarball))
      run('npm', ['pack', `npm@${NPM_VERSION}`, '--silent', '--pack-destination', work], { env, cwd: work });
    const npmDir = join(node, 'usr', 'local', 'lib', 'node_modules', 'npm');
    mkdirSync(npmDir, { recursive: true });
    run('tar', ['-xzf', npmTarball, '-C', npmDir, '--strip-components=1'], { env });
    run('ln', ['-sf', '../lib/node_modules/npm/bin/npm-cli.js', join(node, 'usr', 'local', 'bin', 'npm')], { env });
    say(`Committing ${BUILD_BASE}…`);
    commitBase(BUILD_BASE, tar, node, env);
  }
  return { build: BUILD_BASE, runtime: RUNTIME_BASE };
}

/**
 * Builds the Dockerfile of the checkout into `tag` on the bases above. Layers
 * are cached, so a rebuild after a source change redoes the build stage only.
 */
export function buildImage(tag: string, env: NodeJS.ProcessEnv, say: (line: string) => void): void {
  const bases = provideBases(env, say);
  const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
  const revision = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout?.trim() || 'unknown';
  // A network that inspects TLS: the machine's CA bundle, for npm in the build stages only.
  const ca = '/etc/ssl/certs/ca-certificates.crt';
  const caArgs = existsSync(ca)
    ? [
        '-v',
        `${ca}:/run/ca.crt:ro`,
        '--build-arg',
        'NODE_EXTRA_CA_CERTS=/run/ca.crt',
        '--build-arg',
        'npm_config_cafile=/run/ca.crt',
      ]
    : [];
  say(`Building ${tag} from the Dockerfile with buildah…`);
  run(
    'buildah',
    [
      'bud',
      '--quiet',
      '--format',
      'docker',
      '--network',
      'host',
      '--layers',
      ...caArgs,
      '--build-arg',
      `BASE=${bases.build}`,
      '--build-arg',
      `RUNTIME_BASE=${bases.runtime}`,
      '--build-arg',
      `VERSION=${version}`,
      '--build-arg',
      `REVISION=${revision}`,
      '-t',
      tag,
      root,
    ],
    // Its output is the image's id; its errors go to ours.
    { env, cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
  );
}
