/**
 * A language's tools: how a test written in another language is translated into it. The
 * registry (src/run/registry.ts) loads them when a test meets a model of another language.
 * No Node APIs here.
 */

import type { SourceDiagnostic } from '../core/diagnostics.ts';
import type { Cond } from '../core/types.ts';
import type { AnyTest } from '../vulkan/ast.ts';
import type { DeviceScope } from '../vulkan/translate.ts';

/** How a translation reads what the languages do not share. */
export interface TranslateOptions {
  /** The AMDGPU scope of Vulkan's Device scope (`--device-scope`). */
  deviceScope: DeviceScope;
}

/** A translation: the test (null when it cannot be said), its diagnostics, what it assumes of a final state. */
export interface Translated {
  test: AnyTest | null;
  diagnostics: SourceDiagnostic[];
  /**
   * What a final state of the translated test must satisfy to be one of the original's (the
   * assumptions an await loop's exit adds, src/vulkan/translate.ts); null when there is none.
   */
  assumption: Cond | null;
}

export interface LanguageTools {
  /** `test`, written in another language, in this one. */
  translate(test: AnyTest, o: TranslateOptions): Translated;
}
