import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE_MAIN, BUNDLE_MANIFEST, freshBundle } from '../../bin/bundle.mjs';

const ROOT = join(import.meta.dirname, '..', '..');

function node(args: string[], env: NodeJS.ProcessEnv = process.env) {
  const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', env, maxBuffer: 1 << 26 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * Five threads of different code (no thread symmetry), about a second of search: `--workers`
 * starts the pool for it rather than finishing within the in-process head start.
 */
const ASYMMETRIC = `AMDGPU ASYM
expect: condition holds

@x = addrspace(1) global i32 0
@y = addrspace(1) global i32 0

P0 @ agent 0 {
  store atomic i32 1, ptr addrspace(1) @x monotonic, align 4
  store atomic i32 1, ptr addrspace(1) @y monotonic, align 4
  %r0 = load atomic i32, ptr addrspace(1) @x monotonic, align 4
}
P1 @ agent 1 {
  %r0 = load atomic i32, ptr addrspace(1) @y monotonic, align 4
  store atomic i32 2, ptr addrspace(1) @x monotonic, align 4
  %r1 = load atomic i32, ptr addrspace(1) @x monotonic, align 4
}
P2 @ agent 2 {
  store atomic i32 2, ptr addrspace(1) @y monotonic, align 4
  %r0 = load atomic i32, ptr addrspace(1) @x monotonic, align 4
  %r1 = load atomic i32, ptr addrspace(1) @y monotonic, align 4
}
P3 @ agent 3 {
  %r0 = load atomic i32, ptr addrspace(1) @x monotonic, align 4
  store atomic i32 3, ptr addrspace(1) @x monotonic, align 4
  %r1 = load atomic i32, ptr addrspace(1) @y monotonic, align 4
}
P4 @ agent 4 {
  %r0 = load atomic i32, ptr addrspace(1) @y monotonic, align 4
  store atomic i32 5, ptr addrspace(1) @x monotonic, align 4
}
exists (P0:%r0 == 1)
`;

describe('freshBundle: bin/gpumm.js runs the bundle only when it is up to date', () => {
  /** A package root with a bundle built at `builtAt` from src/a.ts and src/b.ts. */
  function fakeRoot(builtAt: number): string {
    const root = mkdtempSync(join(tmpdir(), 'gpumm-bundle-'));
    mkdirSync(join(root, 'src'));
    mkdirSync(join(root, 'dist', 'cli'), { recursive: true });
    for (const f of ['src/a.ts', 'src/b.ts']) {
      writeFileSync(join(root, f), '');
      utimesSync(join(root, f), (builtAt - 60_000) / 1000, (builtAt - 60_000) / 1000);
    }
    writeFileSync(join(root, BUNDLE_MAIN), '');
    writeFileSync(join(root, BUNDLE_MANIFEST), JSON.stringify({ builtAt, inputs: ['src/a.ts', 'src/b.ts'] }));
    return root;
  }
  const builtAt = Date.now() - 3_600_000;

  it('uses the bundle when no source changed since the build started', () => {
    const root = fakeRoot(builtAt);
    expect(freshBundle(root)).toBe(join(root, BUNDLE_MAIN));
  });

  it('runs the sources when one changed after (an edit, a git pull)', () => {
    const root = fakeRoot(builtAt);
    utimesSync(join(root, 'src/b.ts'), (builtAt + 1000) / 1000, (builtAt + 1000) / 1000);
    expect(freshBundle(root)).toBeNull();
  });

  it('runs the sources when one was removed, or there is no bundle or manifest', () => {
    for (const gone of ['src/a.ts', BUNDLE_MAIN, BUNDLE_MANIFEST]) {
      const root = fakeRoot(builtAt);
      rmSync(join(root, gone));
      expect(freshBundle(root), gone).toBeNull();
    }
    const root = fakeRoot(builtAt);
    writeFileSync(join(root, BUNDLE_MANIFEST), '{');
    expect(freshBundle(root)).toBeNull();
  });
});

describe('the bundle (scripts/build.mjs, run by npm ci)', () => {
  // The real build into dist/cli: files are moved in atomically, so CLI tests running meanwhile
  // read either the previous bundle or this one.
  let build: ReturnType<typeof node>;
  beforeAll(() => {
    build = node(['scripts/build.mjs']);
  });

  it('builds, lists every source file it holds, and is then the one bin/gpumm.js runs', () => {
    expect(build.stderr).toBe('');
    expect(build.status).toBe(0);
    const manifest = JSON.parse(readFileSync(join(ROOT, BUNDLE_MANIFEST), 'utf8'));
    expect(manifest.inputs).toContain('src/cli/main.ts');
    expect(manifest.inputs).toContain('src/enumerate/worker.ts');
    expect(manifest.inputs).toContain('scripts/build.mjs');
    // Our sources only (bin/bundle.mjs: where the builds live, which `gpumm serve` reads).
    expect(
      manifest.inputs.every(
        (i: string) => i.startsWith('src/') || i === 'bin/bundle.mjs' || i === 'scripts/build.mjs',
      ),
    ).toBe(true);
    expect(freshBundle(ROOT)).toBe(join(ROOT, BUNDLE_MAIN));
    const debug = { ...process.env, GPUMM_DEBUG: '1' };
    expect(node(['bin/gpumm.js', '--version'], debug).stderr).toBe(
      `gpumm: running ${join(ROOT, BUNDLE_MAIN)}\n`,
    );
    expect(node(['bin/gpumm.js', '--version'], { ...debug, GPUMM_FROM_SOURCE: '1' }).stderr).toBe(
      'gpumm: running the sources through tsx\n',
    );
  });

  it('npm ci builds it: the prepare script, which npm ci runs in the package folder', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.scripts.prepare).toBe('node scripts/build.mjs');
  });

  it('runs --help, and the demo finds the catalogue from dist/cli', () => {
    const help = node([BUNDLE_MAIN, '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/Commands:[\s\S]*run/);
    const demo = node([BUNDLE_MAIN, 'demo', '--only', 'MP+rel+acq.agent']);
    expect(demo.stderr).toBe('');
    expect(demo.stdout).toMatch(/^MP\+rel\+acq\.agent .* ok$/m);
  });

  it('--workers starts the pool on the bundled worker entry, as the sources do through tsx', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gpumm-bundle-'));
    const f = join(dir, 'asym.litmus');
    writeFileSync(f, ASYMMETRIC);
    const bundled = node([BUNDLE_MAIN, 'run', '--json', '--workers', '2', f]);
    expect(bundled.stderr).not.toMatch(/error/i);
    expect(bundled.status).toBe(0);
    const source = node(['bin/gpumm.js', 'run', '--json', '--workers', '2', f], {
      ...process.env,
      GPUMM_FROM_SOURCE: '1',
    });
    expect(source.status).toBe(0);
    const states = (s: string) => JSON.parse(s)[0].states;
    expect(states(bundled.stdout).length).toBeGreaterThan(100);
    expect(states(bundled.stdout)).toEqual(states(source.stdout));
  }, 60_000);
});
