/**
 * `gpumm convert FILE… --to gpumm|dat3m|khronos`: a test in another syntax. Between gpumm's AMDGPU
 * syntax and the Vulkan syntaxes this translates (src/vulkan/translate.ts, from-amdgpu.ts;
 * docs/model-vulkan.md, "Vulkan and AMDGPU"); between Dartagnan's syntax and the Khronos format it
 * rewrites. What the target cannot say is an error with its place in the file; nothing is printed
 * unless every file converts (nothing half-written).
 */
import { type Command, Option } from 'commander';
import { print } from '../syntax/printer.ts';
import { isVulkan } from '../vulkan/ast.ts';
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
        .choices(['gpumm', 'dat3m', 'khronos'])
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
      async (
        files: string[],
        opts: { to: 'gpumm' | 'dat3m' | 'khronos'; deviceScope: 'system' | 'agent'; errorLimit: number },
      ) => {
        const printer = stderrPrinter(opts.errorLimit);
        const { loaded, ok } = loadAnyTests(files, printer);
        const { vulkanToAmdgpu } = await import('../vulkan/translate.ts');
        const { amdgpuToVulkan } = await import('../vulkan/from-amdgpu.ts');
        const { printDat3m, printKhronos } = await import('../vulkan/print.ts');
        let good = ok;
        const outputs: string[] = [];
        for (const { test, text } of loaded) {
          let out: { text: string | null; diagnostics: import('../syntax/diagnostics.ts').Diagnostic[] };
          if (opts.to === 'gpumm') {
            const r = isVulkan(test) ? vulkanToAmdgpu(test, opts.deviceScope) : { test, diagnostics: [] };
            out = { text: r.test ? print(r.test) : null, diagnostics: r.diagnostics };
          } else {
            const r = isVulkan(test) ? { test, diagnostics: [] } : amdgpuToVulkan(test);
            const p = r.test
              ? opts.to === 'dat3m'
                ? printDat3m(r.test)
                : printKhronos(r.test)
              : { text: null, diagnostics: [] };
            out = { text: p.text, diagnostics: [...r.diagnostics, ...p.diagnostics] };
          }
          printer.print(out.diagnostics, text);
          if (out.text === null) good = false;
          else outputs.push(out.text);
        }
        printer.finish();
        if (!good) throw new CliExit(2);
        process.stdout.write(outputs.join('\n'));
      },
    );
}
