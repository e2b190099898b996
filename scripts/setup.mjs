// Project setup, run before every `npm test` (the pretest script): installs the system tools some tests need.
// Nothing here is a runtime dependency of gpumm; tests that need a missing tool skip with a reason.
// Debian's chromium is what the browser tests (e2e/, playwright-core) drive.
import { spawnSync } from 'node:child_process';

function has(cmd, args = ['--version']) {
  const r = spawnSync(cmd, args, { stdio: 'ignore' });
  return !r.error && r.status === 0;
}

function run(cmd, args) {
  console.log(`setup: $ ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return !r.error && r.status === 0;
}

// llvm-22: llc-22 is the reference the lowering differential test (src/lower/llc.test.ts) compares with.
function setupLlvm() {
  if (has('llc-22')) {
    console.log('setup: llc-22 already installed');
    return;
  }
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!root) {
    console.log('setup: llc-22 missing and not root: llc differential tests will skip');
    return;
  }
  if (!has('apt-get', ['--version'])) {
    console.log('setup: llc-22 missing and apt-get unavailable: llc differential tests will skip');
    return;
  }
  console.log('setup: installing llvm-22 (for llc-22) with apt-get');
  if (!run('apt-get', ['update']) || !run('apt-get', ['install', '-y', 'llvm-22'])) {
    console.log('setup: apt-get could not install llvm-22: llc differential tests will skip');
    return;
  }
  console.log(
    has('llc-22')
      ? 'setup: llc-22 installed'
      : 'setup: llvm-22 installed but llc-22 not on PATH: tests will skip',
  );
}

/** Installs a Debian package for `cmd` when it is missing and we may (root, apt-get); says why not otherwise. */
function setupTool(cmd, pkg, what) {
  if (has('which', [cmd])) {
    console.log(`setup: ${cmd} already installed`);
    return;
  }
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!root || !has('apt-get', ['--version'])) {
    console.log(`setup: ${cmd} missing and ${root ? 'apt-get unavailable' : 'not root'}: ${what} will skip`);
    return;
  }
  console.log(`setup: installing ${pkg} with apt-get`);
  if (
    !run('apt-get', ['install', '-y', pkg]) &&
    !(run('apt-get', ['update']) && run('apt-get', ['install', '-y', pkg]))
  ) {
    console.log(`setup: apt-get could not install ${pkg}: ${what} will skip`);
    return;
  }
  console.log(
    has('which', [cmd])
      ? `setup: ${cmd} installed`
      : `setup: ${pkg} installed but ${cmd} not on PATH: ${what} will skip`,
  );
}

setupLlvm();
// chromium: the browser tests (npm run test:e2e; e2e/browser.ts finds it with `which chromium`).
setupTool('chromium', 'chromium', 'the browser tests');
// slurm-wlm and munge: the campaign's Slurm test (src/campaign/slurm.test.ts) starts a one-machine
// cluster of its own (src/campaign/slurm-cluster.ts); about 10 MB with their libraries.
setupTool('slurmctld', 'slurm-wlm', 'the Slurm cluster test');
setupTool('munged', 'munge', 'the Slurm cluster test');
