import { describe, expect, it } from 'vitest';
import { RunJsonSchema } from './run.ts';
import { gpumm, tmpFile } from './testing.ts';

const MP = 'corpus/vulkan-dat3m/Manual/MP-avvis.litmus';

describe('gpumm run on Vulkan tests', () => {
  it("runs Dartagnan's syntax under the Vulkan model by default, in herd's report format", () => {
    const r = gpumm('run', MP);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Test MP-avvis Allowed');
    expect(r.stdout).toContain('Condition exists (1:r0=1 /\\ 1:r1=0)');
    expect(r.stdout).toContain('Observation MP-avvis Never 0 3');
    expect(r.stdout).toContain('Flag data-race');
  });

  it('--json: the report schema, the same with --model vulkan-cat', () => {
    const fast = RunJsonSchema.parse(JSON.parse(gpumm('run', '--json', MP).stdout));
    const cat = RunJsonSchema.parse(JSON.parse(gpumm('run', '--json', '--model', 'vulkan-cat', MP).stdout));
    const strip = (j: typeof fast) =>
      j.map((x) => ({ states: x.states, condition: x.condition, flags: x.flags }));
    expect(strip(cat)).toEqual(strip(fast));
    expect(fast[0]!.states).toHaveLength(3);
  });

  it('runs a Khronos .test, checking its SATISFIABLE / NOSOLUTION lines (exit 1 when one fails)', () => {
    const ok = gpumm('run', 'litmus-vulkan/MP.chain.wg-then-dv.test');
    expect(ok.status).toBe(0);
    expect(ok.stdout).toContain('Expect assertion SATISFIABLE NOCHAINS consistent[X] && #dr>0: ok');
    const wrong = tmpFile(
      'wrong.test',
      'NEWWG\nNEWSG\nNEWTHREAD\nst.sc0 x = 1\nNEWWG\nNEWSG\nNEWTHREAD\nld.sc0 x = 1\nNOSOLUTION consistent[X] && #dr>0\n',
    );
    const r = gpumm('run', wrong);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('Expect assertion NOSOLUTION consistent[X] && #dr>0: FAILED');
  });

  it('--explain names the check of models/vulkan.cat that forbids the condition', () => {
    const r = gpumm('run', '--explain', 'litmus-vulkan/CoRR.atom.dv.litmus');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/P1:r0=1; P1:r1=0; \(×1\) — consistency \(.*\): cycle: /);
  });

  it('--model amdgpu runs the AMDGPU translation; --model vulkan runs an AMDGPU test translated', () => {
    const a = gpumm('run', '--model', 'amdgpu', MP);
    expect(a.status).toBe(0);
    expect(a.stdout).toContain('Test MP-avvis Allowed');
    expect(a.stdout).toContain('1:r1=undef');
    const v = gpumm('run', '--model', 'vulkan', 'litmus/MP+rel+acq.agent.litmus');
    expect(v.status).toBe(0);
    expect(v.stdout).toContain('Observation MP+rel+acq.agent Never');
    expect(v.stderr).toContain('warning VK4010');
  });

  it("--observe condition lists states over the condition's terms only", () => {
    const all = gpumm('run', 'corpus/vulkan-dat3m/Manual/MP-mesa.litmus');
    const cond = gpumm('run', '--observe', 'condition', 'corpus/vulkan-dat3m/Manual/MP-mesa.litmus');
    expect(all.stdout).toContain('States 1\n0:r3=1; 0:r2=1; 0:r1=1; # ×1\n');
    expect(cond.stdout).toContain('States 1\n0:r3=1; 0:r2=1; # ×1\n');
  });

  it('a loop beyond --unroll leaves the verdict undecided (exit 3)', () => {
    const f = tmpFile(
      'loop.litmus',
      'VULKAN loop\n{ x=0; }\n P0@sg 0, wg 0, qf 0 ;\n LC00: ;\n st.sc0 x, 1 ;\n ld.atom.dv.sc0 r0, x ;\n beq r0, 1, LC00 ;\nexists (x == 1)\n',
    );
    const r = gpumm('run', f);
    expect(r.status).toBe(3);
    expect(r.stderr).toContain('raise --unroll');
  });

  it('malformed files of both syntaxes: every diagnostic with file:line:col and a hint, exit 2, nothing on stdout', () => {
    const d = tmpFile(
      'bad.litmus',
      'VULKAN bad\n{ x=0; }\n P0@sg 0, wg 0, qf 0 ;\n ld.rel.sc0 r0, x ;\n st x, 1 ;\nexists (P0:r0 == 0)\n',
    );
    const r = gpumm('run', d);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`${d}:4:5: error VK2004: '.rel' is not a modifier of ld`);
    expect(r.stderr).toContain(`${d}:5:2: error VK3001: st has no storage class`);
    expect(r.stderr).toContain('hint: ');
    const k = tmpFile('bad.test', 'NEWTHREAD\nst.foo.sc0 x = 1\n');
    const rk = gpumm('parse', k);
    expect(rk.status).toBe(2);
    expect(rk.stdout).toBe('');
    expect(rk.stderr).toContain(`${k}:2:4: error VK4001: unknown token 'foo'`);
    expect(gpumm('run', '--unroll', '-1', MP).status).toBe(2);
  });
});

describe('gpumm parse and convert', () => {
  it('parse prints a test in its own syntax', () => {
    const r = gpumm('parse', 'litmus-vulkan/SSW.avvis.test');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('NEWTHREAD 1\nld.vis.scopedev.sc0 x = 0\nSSW 0 1\nNOSOLUTION consistent[X]\n');
  });

  it('convert writes a test in another syntax, or says what it cannot write (exit 2, nothing on stdout)', () => {
    const g = gpumm('convert', MP, '--to', 'gpumm');
    expect(g.status).toBe(0);
    expect(g.stdout).toContain('AMDGPU MP-avvis');
    expect(g.stdout).toContain(
      'call void @llvm.amdgcn.av.global.store.b128(ptr addrspace(1) @x, i32 1, metadata !"")',
    );
    const k = gpumm('convert', MP, '--to', 'khronos');
    expect(k.status).toBe(0);
    expect(k.stdout).toContain('ld.vis.scopedev.sc0 x = 0');
    const d = gpumm('convert', 'litmus/MP+rel+acq.agent.litmus', '--to', 'dat3m');
    expect(d.status).toBe(0);
    expect(d.stdout).toContain('st.atom.rel.qf.sc0.semsc0.semav y, 1');
    const no = gpumm('convert', 'corpus/vulkan-dat3m/Barrier/quorum1-pass.litmus', '--to', 'gpumm');
    expect(no.status).toBe(2);
    expect(no.stdout).toBe('');
    expect(no.stderr).toContain('error VK4008');
  });
});

describe('gpumm compare --models vulkan,amdgpu', () => {
  it('gives both verdicts and, where they differ, a state one model allows with the axiom of the other', () => {
    const r = gpumm('compare', '--models', 'vulkan,amdgpu', MP, 'corpus/vulkan-dat3m/Manual/IRIW.litmus');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(
      'Test MP-avvis\n  vulkan  condition fails, 3 final states (race)\n  amdgpu  condition fails, 2 final states (race, undef)',
    );
    expect(r.stdout).toContain('only vulkan allows: P1:r0=0; P1:r1=0;');
    expect(r.stdout).toContain('amdgpu forbids it: value rules:');
    expect(r.stdout).toContain('only amdgpu allows: P1:r0=0; P1:r1=undef;');
    expect(r.stdout).toContain('vulkan forbids it: the Vulkan model has no undef value');
    expect(r.stdout).toContain(
      'Test IRIW\n  vulkan  condition holds, 16 final states\n  amdgpu  condition holds, 16 final states\n  both models reach the same final states',
    );
  });

  it('a test one model cannot read is a diagnostic, exit 2', () => {
    const r = gpumm(
      'compare',
      '--models',
      'vulkan,amdgpu',
      'corpus/vulkan-dat3m/Barrier/quorum1-pass.litmus',
    );
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('VK4008');
  });
});

describe('gpumm lower of a Vulkan test', () => {
  it('lowers its AMDGPU translation', () => {
    const r = gpumm('lower', 'litmus-vulkan/MP.cbar.wg.litmus', '--target', 'gfx1100');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('call void @llvm.amdgcn.s.barrier()\n      s_barrier');
  });
});
