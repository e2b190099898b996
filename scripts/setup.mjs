// Project setup run by CI after `npm ci`: installs the system tools some tests need.
// Nothing here is a runtime dependency of gpumm; tests that need a missing tool skip with a reason.
// Later stages add their tools here (Debian's chromium for browser tests, llvm for lowering checks).
console.log('setup: nothing to install');
