/**
 * `gpumm convert FILE… --to gpumm|dat3m|khronos`: a test in another syntax. Between gpumm's AMDGPU
 * syntax and the Vulkan syntaxes this translates (src/vulkan/translate.ts, from-amdgpu.ts;
 * docs/model-vulkan.md, "Vulkan and AMDGPU"); between Dartagnan's syntax and the Khronos format it
 * rewrites. What the target cannot say is an error with its place in the file; nothing is printed
 * unless every file converts (nothing half-written).
 */
import { type Command, Option } from 'commander';
import { SYNTAXES, type Syntax, syntaxEntry } from '../run/syntaxes.ts';
import { outputText } from './format.ts';
import { loadAnyTests, stderrPrinter } from './io.ts';
import { CliExit, errorLimitOption } from './shared.ts';

export function registerConvert(program: Command): void {
  program
    .command('convert')
    .description(
      'print test files in another syntax: gpumm (AMDGPU), dat3m (Vulkan, Dartagnan), khronos (Vulkan .test)',
    )
    .argument('<files...>', 'test files')
    .addOption(
      new Option('--to <syntax>', 'the syntax to print')
        .choices(SYNTAXES.map((x) => x.id))
        .makeOptionMandatory(),
    )
    .addOption(
      new Option(
        '--device-scope <scope>',
        "--to gpumm: the AMDGPU scope of Vulkan's Device scope (docs/model-vulkan.md)",
      )
        .choices(['system', 'agent'])
        .default('system'),
    )
    .addOption(errorLimitOption())
    .action(
      async (files: string[], opts: { to: Syntax; deviceScope: 'system' | 'agent'; errorLimit: number }) => {
        const printer = stderrPrinter(opts.errorLimit);
        const { loaded, ok } = loadAnyTests(files, printer);
        const syntax = syntaxEntry(opts.to);
        const { inLanguage } = await import('../run/runner.ts');
        let good = ok;
        const outputs: string[] = [];
        for (const { test, text } of loaded) {
          // Into the syntax's language (a translation where the languages differ), then printed in it.
          const r = await inLanguage(test, syntax.language, { deviceScope: opts.deviceScope });
          const p = r.prepared ? syntax.print(r.prepared.test) : { text: null, diagnostics: [] };
          printer.print([...r.diagnostics, ...p.diagnostics], text);
          if (p.text === null) good = false;
          else outputs.push(p.text);
        }
        printer.finish();
        if (!good) throw new CliExit(2);
        process.stdout.write(outputText(outputs.join('\n')));
      },
    );
}
