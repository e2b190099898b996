/**
 * The `gpumm` command line. Subcommands live in their own files and register themselves here.
 * Every user error ends as a diagnostic on stderr and exit status 2, never a stack trace.
 */
import { Command, CommanderError } from 'commander';
import { registerCheck } from './check.ts';
import { registerCompare } from './compare.ts';
import { registerConvert } from './convert.ts';
import { registerDemo } from './demo.ts';
import { registerLower } from './lower.ts';
import { registerMutate } from './mutate.ts';
import { registerParse } from './parse.ts';
import { registerRun } from './run.ts';
import { registerServe } from './serve.ts';
import { CliExit, commandLineDiagnostic, reportInternalError } from './shared.ts';

const program = new Command();
program
  .name('gpumm')
  .description('Executable reference for GPU scoped memory models (AMDGPU, Vulkan, Intel Xe)')
  .version('0.1.0')
  .showHelpAfterError(false)
  .exitOverride()
  .configureOutput({ writeErr: () => {} });

// A reader that stops early (`gpumm run … | head`) is not an error: no stack trace.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

registerParse(program);
registerConvert(program);
registerRun(program);
registerDemo(program);
registerLower(program);
registerCompare(program);
registerCheck(program);
registerMutate(program);
registerServe(program);

try {
  await program.parseAsync(process.argv);
} catch (e) {
  if (e instanceof CliExit) process.exitCode = e.status;
  else if (e instanceof CommanderError) {
    if (e.exitCode === 0)
      process.exitCode = 0; // --help, --version
    else {
      process.stderr.write(`${commandLineDiagnostic(e, process.argv.slice(2))}\n`);
      process.exitCode = 2;
    }
  } else {
    reportInternalError(e);
  }
}
