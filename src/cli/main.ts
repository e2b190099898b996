/**
 * The `gpumm` command line. Subcommands live in their own files and register themselves here.
 * Every user error ends as a diagnostic on stderr and exit status 2, never a stack trace.
 */
import { Command, CommanderError } from 'commander';
import {
  CliExit,
  commandLineDiagnostic,
  EXIT_OUTPUT_FAILED,
  reportInternalError,
  stdoutFailure,
} from './shared.ts';

const program = new Command();
program
  .name('gpumm')
  .description('Executable reference for GPU scoped memory models (AMDGPU, Vulkan, Intel Xe)')
  .version('0.1.0')
  .showHelpAfterError(false)
  .exitOverride()
  .configureOutput({ writeErr: () => {} });

// A reader that stops early (`gpumm run … | head`) is not an error: no stack trace. Output that
// cannot be written (a full disk) is CL1007 and exit 74, sysexits' EX_IOERR: not 1, which says an
// expectation failed.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
  process.stderr.write(`${stdoutFailure(e)}\n`);
  process.exit(EXIT_OUTPUT_FAILED);
});

/**
 * The subcommands in the order `--help` lists them, each module loaded only when needed: the one the
 * command line names, or all of them (`--help`, `help`, a misspelt name that wants suggestions).
 * Loading every module costs a `gpumm run` about a quarter of its start-up (docs/benchmarks.md,
 * "Start-up").
 */
const COMMANDS: [string, () => Promise<(p: Command) => void>][] = [
  ['parse', async () => (await import('./parse.ts')).registerParse],
  ['convert', async () => (await import('./convert.ts')).registerConvert],
  ['run', async () => (await import('./run.ts')).registerRun],
  ['demo', async () => (await import('./demo.ts')).registerDemo],
  ['lower', async () => (await import('./lower.ts')).registerLower],
  ['compare', async () => (await import('./compare.ts')).registerCompare],
  ['check', async () => (await import('./check.ts')).registerCheck],
  ['mutate', async () => (await import('./mutate.ts')).registerMutate],
  ['campaign', async () => (await import('./campaign.ts')).registerCampaign],
  ['gen', async () => (await import('./gen.ts')).registerGen],
  ['serve', async () => (await import('./serve.ts')).registerServe],
];
const asked = process.argv.slice(2).find((a) => !a.startsWith('-'));
const only = COMMANDS.find(([name]) => name === asked);

try {
  for (const [, load] of only ? [only] : COMMANDS) (await load())(program);
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
