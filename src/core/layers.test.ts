/**
 * The house's layering (DESIGN.md): no module imports one that imports it back, and the machines never
 * see the model — src/sim imports nothing from src/events, src/enumerate or src/models, so a `sound`
 * verdict is not circular; the generic cat engine (src/cat) imports no language but through the
 * AMDGPU primitives it is written for, and nothing of src/vulkan. The command line is the top: nothing
 * of src/ and nothing of the explorer (web/src) imports src/cli, and which language a test is in is
 * asked in one place, the registry's providers (src/run), not by `isVulkan` branches elsewhere.
 */

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..');
const ROOT = join(SRC, '..');

/** Every non-test module of `dir`, its path relative to the repository. */
function modules(dir: string): string[] {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d)) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.tsx?$/.test(e) && !/\.test\.tsx?$/.test(e) && !e.startsWith('testutil')) files.push(p);
    }
  };
  walk(dir);
  return files.map((f) => relative(ROOT, f));
}

/** Every non-test module of src/ with the modules it imports values from (type-only imports left out). */
function importGraph(): Map<string, string[]> {
  const g = new Map<string, string[]>();
  for (const m of modules(SRC)) {
    const f = join(ROOT, m);
    const text = readFileSync(f, 'utf8');
    const deps = [...text.matchAll(/^(?:import|export)\s+(type\s+)?[^'"]*?from\s+'(\.[^']+)'/gm)]
      .filter((m) => !m[1])
      .map((m) => relative(SRC, resolve(dirname(f), m[2]!)));
    g.set(relative(SRC, f), deps);
  }
  return g;
}

describe('the layers of src/', () => {
  const g = importGraph();

  it('has no import circle (value imports)', () => {
    const state = new Map<string, 'open' | 'done'>();
    const circles: string[] = [];
    const visit = (v: string, path: string[]) => {
      state.set(v, 'open');
      for (const w of g.get(v) ?? []) {
        if (!g.has(w)) continue;
        if (state.get(w) === 'open') circles.push([...path.slice(path.indexOf(w)), w].join(' → '));
        else if (!state.has(w)) visit(w, [...path, w]);
      }
      state.set(v, 'done');
    };
    for (const v of g.keys()) if (!state.has(v)) visit(v, [v]);
    expect(circles).toEqual([]);
  });

  it('the machines (src/sim) import nothing of the model', () => {
    const bad = [...g.entries()].flatMap(([f, deps]) =>
      f.startsWith('sim/')
        ? deps.filter((d) => /^(events|enumerate|models|cat)\//.test(d)).map((d) => `${f} → ${d}`)
        : [],
    );
    expect(bad).toEqual([]);
  });

  it('the cat engine imports nothing of the Vulkan language', () => {
    const bad = [...g.entries()].flatMap(([f, deps]) =>
      f.startsWith('cat/') ? deps.filter((d) => d.startsWith('vulkan/')).map((d) => `${f} → ${d}`) : [],
    );
    expect(bad).toEqual([]);
  });

  it('nothing of src/ but the command line, and nothing of the explorer, imports src/cli', () => {
    const bad = [...modules(SRC), ...modules(join(ROOT, 'web', 'src'))].flatMap((f) => {
      if (f.startsWith('src/cli/')) return [];
      const text = readFileSync(join(ROOT, f), 'utf8');
      return [...text.matchAll(/^(?:import|export)\s[^'"]*?from\s+'(\.[^']+)'/gm)]
        .map((m) => relative(ROOT, resolve(dirname(join(ROOT, f)), m[1]!)))
        .filter((d) => d.startsWith('src/cli/'))
        .map((d) => `${f} → ${d}`);
    });
    expect(bad).toEqual([]);
  });

  it('asks which language a test is in only in the registry (src/run) and the Vulkan front end', () => {
    const bad = [...modules(SRC), ...modules(join(ROOT, 'web', 'src'))].filter(
      (f) =>
        !f.startsWith('src/run/') &&
        !f.startsWith('src/vulkan/') &&
        /\bisVulkan\b/.test(readFileSync(join(ROOT, f), 'utf8')),
    );
    expect(bad).toEqual([]);
  });
});
