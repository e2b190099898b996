/**
 * Spec rows transcribed by hand from spec/amdgpu-usage-2018.rst ("AMDHSA Memory Model Code Sequences
 * GFX6-GFX9"), spec/gfx12-memory-model.rst ("Code Sequences GFX12", "Instruction Scopes"), the
 * current AMDGPUUsage.rst (GFX10-11, GFX90A, GFX942, GFX125x) and seeds/001, written as the spec
 * spells them. They use no table data from src/lower, so a wrong table cannot pass by agreeing with
 * itself.
 */

import { describe, expect, it } from 'vitest';
import type { Instr } from '../core/types.ts';
import { barrierOf, lowerText } from './test-helpers.ts';
import type { Lang } from './types.ts';

type Case = [target: string, mode: 'cu' | 'wgp', lang: 'hsa' | 'opencl', desc: string, expected: string[]];

const VM_LGKM = 's_waitcnt vmcnt(0) lgkmcnt(0)';
const INV1 = 'buffer_wbinvl1_vol';

const GFX6_9: Case[] = [
  // Non-Atomic
  ['gfx900', 'cu', 'hsa', 'load none none global', ['global_load']],
  ['gfx900', 'cu', 'hsa', 'load none none global volatile', ['global_load glc=1']],
  ['gfx900', 'cu', 'hsa', 'load none none generic volatile', ['flat_load glc=1']],
  ['gfx900', 'cu', 'hsa', 'load none none local', ['ds_load']],
  ['gfx900', 'cu', 'hsa', 'store none none generic', ['flat_store']],
  ['gfx900', 'cu', 'hsa', 'store none none local', ['ds_store']],
  ['gfx803', 'cu', 'hsa', 'store none none global', ['buffer_store']],
  // Unordered
  ['gfx900', 'cu', 'hsa', 'load unordered agent global', ['global_load']],
  // Monotonic
  ['gfx900', 'cu', 'hsa', 'load monotonic workgroup global', ['global_load']],
  ['gfx900', 'cu', 'hsa', 'load monotonic agent global', ['global_load glc=1']],
  ['gfx900', 'cu', 'hsa', 'load monotonic system generic', ['flat_load glc=1']],
  ['gfx900', 'cu', 'hsa', 'load monotonic wavefront local', ['ds_load']],
  ['gfx900', 'cu', 'hsa', 'store monotonic system global', ['global_store']],
  ['gfx900', 'cu', 'hsa', 'store monotonic workgroup local', ['ds_store']],
  ['gfx900', 'cu', 'hsa', 'atomicrmw monotonic agent global noret', ['global_atomic']],
  ['gfx900', 'cu', 'hsa', 'atomicrmw monotonic workgroup local noret', ['ds_atomic']],
  // Acquire
  ['gfx900', 'cu', 'hsa', 'load acquire wavefront generic', ['flat_load']],
  ['gfx900', 'cu', 'hsa', 'load acquire workgroup global', ['global_load']],
  ['gfx900', 'cu', 'hsa', 'load acquire workgroup local', ['ds_load', 's_waitcnt lgkmcnt(0)']],
  ['gfx900', 'cu', 'opencl', 'load acquire workgroup local', ['ds_load']],
  ['gfx900', 'cu', 'hsa', 'load acquire workgroup generic', ['flat_load', 's_waitcnt lgkmcnt(0)']],
  ['gfx900', 'cu', 'hsa', 'load acquire agent global', ['global_load glc=1', 's_waitcnt vmcnt(0)', INV1]],
  ['gfx803', 'cu', 'hsa', 'load acquire system global', ['buffer_load glc=1', 's_waitcnt vmcnt(0)', INV1]],
  ['gfx900', 'cu', 'hsa', 'load acquire system generic', ['flat_load glc=1', VM_LGKM, INV1]],
  ['gfx900', 'cu', 'opencl', 'load acquire system generic', ['flat_load glc=1', 's_waitcnt vmcnt(0)', INV1]],
  ['gfx900', 'cu', 'hsa', 'atomicrmw acquire workgroup global noret', ['global_atomic']],
  [
    'gfx900',
    'cu',
    'hsa',
    'atomicrmw acquire workgroup generic noret',
    ['flat_atomic', 's_waitcnt lgkmcnt(0)'],
  ],
  [
    'gfx900',
    'cu',
    'hsa',
    'atomicrmw acquire agent global noret',
    ['global_atomic', 's_waitcnt vmcnt(0)', INV1],
  ],
  [
    'gfx900',
    'cu',
    'opencl',
    'atomicrmw acquire agent generic noret',
    ['flat_atomic', 's_waitcnt vmcnt(0)', INV1],
  ],
  ['gfx900', 'cu', 'hsa', 'fence acquire wavefront', []],
  ['gfx900', 'cu', 'opencl', 'fence acquire workgroup', ['s_waitcnt lgkmcnt(0)']],
  ['gfx900', 'cu', 'hsa', 'fence acquire agent', [VM_LGKM, INV1]],
  // Release
  ['gfx900', 'cu', 'hsa', 'store release workgroup global', ['s_waitcnt lgkmcnt(0)', 'global_store']],
  ['gfx900', 'cu', 'opencl', 'store release workgroup global', ['global_store']],
  ['gfx900', 'cu', 'hsa', 'store release workgroup local', ['ds_store']],
  ['gfx900', 'cu', 'hsa', 'store release system generic', [VM_LGKM, 'flat_store']],
  ['gfx900', 'cu', 'opencl', 'store release system generic', ['s_waitcnt vmcnt(0)', 'flat_store']],
  ['gfx900', 'cu', 'hsa', 'atomicrmw release agent global noret', [VM_LGKM, 'global_atomic']],
  ['gfx900', 'cu', 'hsa', 'fence release workgroup', ['s_waitcnt lgkmcnt(0)']],
  ['gfx900', 'cu', 'hsa', 'fence release system', [VM_LGKM]],
  // Acquire-release
  [
    'gfx900',
    'cu',
    'hsa',
    'atomicrmw acq_rel workgroup global noret',
    ['s_waitcnt lgkmcnt(0)', 'global_atomic'],
  ],
  ['gfx900', 'cu', 'hsa', 'atomicrmw acq_rel workgroup local noret', ['ds_atomic', 's_waitcnt lgkmcnt(0)']],
  [
    'gfx900',
    'cu',
    'hsa',
    'atomicrmw acq_rel workgroup generic noret',
    ['s_waitcnt lgkmcnt(0)', 'flat_atomic', 's_waitcnt lgkmcnt(0)'],
  ],
  [
    'gfx900',
    'cu',
    'hsa',
    'atomicrmw acq_rel agent global noret',
    [VM_LGKM, 'global_atomic', 's_waitcnt vmcnt(0)', INV1],
  ],
  ['gfx900', 'cu', 'hsa', 'atomicrmw acq_rel system generic noret', [VM_LGKM, 'flat_atomic', VM_LGKM, INV1]],
  ['gfx900', 'cu', 'hsa', 'fence acq_rel agent', [VM_LGKM, INV1]],
  // Sequentially consistent
  ['gfx900', 'cu', 'hsa', 'load seq_cst workgroup global', ['global_load']],
  [
    'gfx900',
    'cu',
    'hsa',
    'load seq_cst agent global',
    ['s_waitcnt vmcnt(0)', 'global_load glc=1', 's_waitcnt vmcnt(0)', INV1],
  ],
  ['gfx900', 'cu', 'hsa', 'store seq_cst agent global', [VM_LGKM, 'global_store']],
  ['gfx900', 'cu', 'hsa', 'atomicrmw seq_cst workgroup local noret', ['ds_atomic', 's_waitcnt lgkmcnt(0)']],
  ['gfx900', 'cu', 'hsa', 'fence seq_cst system', [VM_LGKM, INV1]],
  // Returning atomics select glc=1 on GFX6–9.
  ['gfx900', 'cu', 'hsa', 'atomicrmw monotonic agent global ret', ['global_atomic glc=1']],
  // Diagnostics the spec justifies.
  ['gfx600', 'cu', 'hsa', 'load none none generic', ['error LW2004']],
  ['gfx900', 'cu', 'hsa', 'store acquire agent global', ['error LW2002']],
  ['gfx900', 'cu', 'hsa', 'store none none constant', ['error LW2003']],
];

const W5 = [
  's_wait_bvhcnt 0x0',
  's_wait_samplecnt 0x0',
  's_wait_storecnt 0x0',
  's_wait_loadcnt 0x0',
  's_wait_dscnt 0x0',
];
const W4 = W5.slice(0, 4);

const GFX12: Case[] = [
  // Non-Atomic
  ['gfx1200', 'wgp', 'hsa', 'load none none global', ['global_load']],
  ['gfx1200', 'wgp', 'hsa', 'load none none global nontemporal', ['global_load th:TH_LOAD_NT']],
  [
    'gfx1200',
    'wgp',
    'hsa',
    'load none none global volatile',
    ['global_load scope:SCOPE_SYS', 's_wait_loadcnt 0x0'],
  ],
  [
    'gfx1200',
    'cu',
    'hsa',
    'store none none generic volatile',
    ['flat_store scope:SCOPE_SYS', 's_wait_storecnt 0x0'],
  ],
  ['gfx1200', 'wgp', 'hsa', 'store none none global nontemporal', ['global_store th:TH_STORE_NT']],
  [
    'gfx1200',
    'wgp',
    'hsa',
    'load none none private volatile',
    ['scratch_load scope:SCOPE_SYS', 's_wait_loadcnt 0x0'],
  ],
  ['gfx1200', 'wgp', 'hsa', 'store none none local', ['ds_store']],
  // Monotonic + Instruction Scopes table
  ['gfx1200', 'cu', 'hsa', 'load monotonic workgroup global', ['global_load']],
  ['gfx1200', 'wgp', 'hsa', 'load monotonic workgroup global', ['global_load scope:SCOPE_SE']],
  ['gfx1201', 'cu', 'hsa', 'load monotonic agent generic', ['flat_load scope:SCOPE_DEV']],
  ['gfx1200', 'wgp', 'hsa', 'store monotonic system global', ['global_store scope:SCOPE_SYS']],
  [
    'gfx1200',
    'wgp',
    'hsa',
    'atomicrmw monotonic agent-one-as global noret',
    ['global_atomic scope:SCOPE_DEV'],
  ],
  ['gfx1200', 'wgp', 'hsa', 'atomicrmw monotonic wavefront global noret', ['global_atomic']],
  // Acquire
  [
    'gfx1200',
    'wgp',
    'hsa',
    'load acquire workgroup global',
    ['global_load scope:SCOPE_SE', 's_wait_loadcnt 0x0', 'global_inv scope:SCOPE_SE'],
  ],
  ['gfx1200', 'cu', 'hsa', 'load acquire workgroup global', ['global_load']],
  [
    'gfx1200',
    'wgp',
    'hsa',
    'load acquire workgroup local',
    ['ds_load', 's_wait_dscnt 0x0', 'global_inv scope:SCOPE_SE'],
  ],
  ['gfx1200', 'cu', 'hsa', 'load acquire workgroup local', ['ds_load', 's_wait_dscnt 0x0']],
  ['gfx1200', 'wgp', 'opencl', 'load acquire workgroup local', ['ds_load']],
  [
    'gfx1200',
    'wgp',
    'hsa',
    'load acquire workgroup generic',
    ['flat_load scope:SCOPE_SE', 's_wait_loadcnt 0x0', 's_wait_dscnt 0x0', 'global_inv scope:SCOPE_SE'],
  ],
  ['gfx1200', 'cu', 'hsa', 'load acquire workgroup generic', ['flat_load', 's_wait_dscnt 0x0']],
  ['gfx1200', 'cu', 'opencl', 'load acquire workgroup generic', ['flat_load']],
  [
    'gfx1200',
    'cu',
    'hsa',
    'load acquire agent global',
    ['global_load scope:SCOPE_DEV', 's_wait_loadcnt 0x0', 'global_inv scope:SCOPE_DEV'],
  ],
  [
    'gfx1200',
    'wgp',
    'opencl',
    'load acquire system generic',
    ['flat_load scope:SCOPE_SYS', 's_wait_loadcnt 0x0', 'global_inv scope:SCOPE_SYS'],
  ],
  [
    'gfx1200',
    'wgp',
    'hsa',
    'atomicrmw acquire workgroup global ret',
    ['global_atomic th:TH_ATOMIC_RETURN scope:SCOPE_SE', 's_wait_loadcnt 0x0', 'global_inv scope:SCOPE_SE'],
  ],
  [
    'gfx1200',
    'wgp',
    'hsa',
    'atomicrmw acquire workgroup global noret',
    ['global_atomic scope:SCOPE_SE', 's_wait_storecnt 0x0', 'global_inv scope:SCOPE_SE'],
  ],
  [
    'gfx1200',
    'cu',
    'hsa',
    'atomicrmw acquire workgroup generic ret',
    ['flat_atomic th:TH_ATOMIC_RETURN', 's_wait_dscnt 0x0'],
  ],
  ['gfx1200', 'cu', 'hsa', 'atomicrmw acquire workgroup generic noret', ['flat_atomic']],
  [
    'gfx1200',
    'wgp',
    'hsa',
    'atomicrmw acquire agent generic noret',
    ['flat_atomic scope:SCOPE_DEV', 's_wait_storecnt 0x0', 's_wait_dscnt 0x0', 'global_inv scope:SCOPE_DEV'],
  ],
  ['gfx1200', 'wgp', 'hsa', 'fence acquire workgroup', [...W5, 'global_inv scope:SCOPE_SE']],
  ['gfx1200', 'cu', 'hsa', 'fence acquire workgroup', ['s_wait_dscnt 0x0']],
  ['gfx1200', 'cu', 'opencl', 'fence acquire workgroup', []],
  ['gfx1200', 'wgp', 'hsa', 'fence acquire agent', [...W5, 'global_inv scope:SCOPE_DEV']],
  // Release
  [
    'gfx1200',
    'wgp',
    'hsa',
    'store release workgroup global',
    ['global_wb scope:SCOPE_SE', ...W5, 'global_store scope:SCOPE_SE'],
  ],
  ['gfx1200', 'cu', 'hsa', 'store release workgroup global', ['s_wait_dscnt 0x0', 'global_store']],
  ['gfx1200', 'cu', 'opencl', 'store release workgroup global', ['global_store']],
  ['gfx1200', 'wgp', 'opencl', 'store release workgroup local', ['ds_store']],
  ['gfx1200', 'wgp', 'hsa', 'store release workgroup local', ['global_wb scope:SCOPE_SE', ...W5, 'ds_store']],
  [
    'gfx1200',
    'wgp',
    'hsa',
    'store release system generic',
    ['global_wb scope:SCOPE_SYS', ...W5, 'flat_store scope:SCOPE_SYS'],
  ],
  [
    'gfx1200',
    'cu',
    'opencl',
    'atomicrmw release agent global noret',
    ['global_wb scope:SCOPE_DEV', ...W4, 'global_atomic scope:SCOPE_DEV'],
  ],
  ['gfx1200', 'wgp', 'hsa', 'fence release workgroup', ['global_wb scope:SCOPE_SE', ...W5]],
  ['gfx1200', 'wgp', 'opencl', 'fence release system', ['global_wb scope:SCOPE_SYS', ...W4]],
  // Acquire-release
  [
    'gfx1200',
    'wgp',
    'hsa',
    'atomicrmw acq_rel workgroup global ret',
    [
      'global_wb scope:SCOPE_SE',
      ...W5,
      'global_atomic th:TH_ATOMIC_RETURN scope:SCOPE_SE',
      's_wait_loadcnt 0x0',
      'global_inv scope:SCOPE_SE',
    ],
  ],
  [
    'gfx1200',
    'wgp',
    'hsa',
    'atomicrmw acq_rel workgroup local ret',
    ['global_wb scope:SCOPE_SE', ...W5, 'ds_atomic', 's_wait_dscnt 0x0', 'global_inv scope:SCOPE_SE'],
  ],
  [
    'gfx1200',
    'wgp',
    'hsa',
    'atomicrmw acq_rel agent generic ret',
    [
      'global_wb scope:SCOPE_DEV',
      ...W5,
      'flat_atomic th:TH_ATOMIC_RETURN scope:SCOPE_DEV',
      's_wait_loadcnt 0x0',
      's_wait_dscnt 0x0',
      'global_inv scope:SCOPE_DEV',
    ],
  ],
  ['gfx1200', 'cu', 'hsa', 'fence acq_rel workgroup', ['s_wait_dscnt 0x0']],
  [
    'gfx1200',
    'wgp',
    'hsa',
    'fence acq_rel agent',
    ['global_wb scope:SCOPE_DEV', ...W5, 'global_inv scope:SCOPE_DEV'],
  ],
  // Sequentially consistent
  [
    'gfx1200',
    'wgp',
    'opencl',
    'load seq_cst workgroup global',
    [...W4, 'global_load scope:SCOPE_SE', 's_wait_loadcnt 0x0', 'global_inv scope:SCOPE_SE'],
  ],
  [
    'gfx1200',
    'wgp',
    'hsa',
    'load seq_cst agent global',
    [...W5, 'global_load scope:SCOPE_DEV', 's_wait_loadcnt 0x0', 'global_inv scope:SCOPE_DEV'],
  ],
  [
    'gfx1200',
    'wgp',
    'opencl',
    'store seq_cst workgroup local',
    ['global_wb scope:SCOPE_SE', ...W5, 'ds_store'],
  ],
  [
    'gfx1200',
    'wgp',
    'opencl',
    'atomicrmw seq_cst agent global noret',
    [
      'global_wb scope:SCOPE_DEV',
      ...W5,
      'global_atomic scope:SCOPE_DEV',
      's_wait_storecnt 0x0',
      'global_inv scope:SCOPE_DEV',
    ],
  ],
  [
    'gfx1200',
    'wgp',
    'opencl',
    'fence seq_cst workgroup',
    ['global_wb scope:SCOPE_SE', ...W5, 'global_inv scope:SCOPE_SE'],
  ],
];

const VSC = 's_waitcnt_vscnt null, 0x0';

// Beyond the seeds: LLVM AMDGPUUsage.rst @001388cf, "AMDHSA Memory Model Code Sequences GFX10-GFX11".
const GFX10_11: Case[] = [
  ['gfx1030', 'wgp', 'hsa', 'load none none global nontemporal', ['global_load slc=1']],
  ['gfx1100', 'wgp', 'hsa', 'load none none global nontemporal', ['global_load slc=1 dlc=1']],
  [
    'gfx1030',
    'wgp',
    'hsa',
    'load none none generic volatile',
    ['flat_load glc=1 dlc=1', 's_waitcnt vmcnt(0)'],
  ],
  ['gfx1100', 'wgp', 'hsa', 'store none none global volatile', ['global_store dlc=1', VSC]],
  ['gfx1030', 'wgp', 'hsa', 'store none none global volatile', ['global_store', VSC]],
  ['gfx1030', 'wgp', 'hsa', 'load monotonic workgroup global', ['global_load glc=1']],
  ['gfx1030', 'cu', 'hsa', 'load monotonic workgroup global', ['global_load']],
  ['gfx1030', 'wgp', 'hsa', 'load monotonic agent generic', ['flat_load glc=1 dlc=1']],
  ['gfx1100', 'wgp', 'hsa', 'load monotonic system global', ['global_load glc=1']],
  [
    'gfx1030',
    'wgp',
    'hsa',
    'load acquire workgroup global',
    ['global_load glc=1', 's_waitcnt vmcnt(0)', 'buffer_gl0_inv'],
  ],
  ['gfx1030', 'cu', 'hsa', 'load acquire workgroup global', ['global_load']],
  [
    'gfx1030',
    'wgp',
    'hsa',
    'load acquire workgroup generic',
    ['flat_load glc=1', 's_waitcnt vmcnt(0) lgkmcnt(0)', 'buffer_gl0_inv'],
  ],
  ['gfx1030', 'cu', 'hsa', 'load acquire workgroup generic', ['flat_load', 's_waitcnt lgkmcnt(0)']],
  [
    'gfx1100',
    'wgp',
    'hsa',
    'load acquire agent global',
    ['global_load glc=1', 's_waitcnt vmcnt(0)', 'buffer_gl1_inv', 'buffer_gl0_inv'],
  ],
  [
    'gfx1030',
    'wgp',
    'hsa',
    'atomicrmw acquire agent global noret',
    ['global_atomic', VSC, 'buffer_gl1_inv', 'buffer_gl0_inv'],
  ],
  [
    'gfx1030',
    'wgp',
    'opencl',
    'atomicrmw acquire system generic ret',
    ['flat_atomic glc=1', 's_waitcnt vmcnt(0)', 'buffer_gl1_inv', 'buffer_gl0_inv'],
  ],
  [
    'gfx1030',
    'wgp',
    'hsa',
    'fence acquire workgroup',
    ['s_waitcnt vmcnt(0) lgkmcnt(0)', VSC, 'buffer_gl0_inv'],
  ],
  ['gfx1030', 'cu', 'opencl', 'fence acquire workgroup', ['s_waitcnt lgkmcnt(0)']],
  [
    'gfx1030',
    'wgp',
    'hsa',
    'store release workgroup global',
    ['s_waitcnt vmcnt(0) lgkmcnt(0)', VSC, 'global_store'],
  ],
  ['gfx1030', 'cu', 'opencl', 'store release workgroup global', ['global_store']],
  ['gfx1030', 'wgp', 'hsa', 'store release workgroup local', ['s_waitcnt vmcnt(0)', VSC, 'ds_store']],
  ['gfx1030', 'wgp', 'opencl', 'store release agent global', ['s_waitcnt vmcnt(0)', VSC, 'global_store']],
  [
    'gfx1030',
    'wgp',
    'opencl',
    'store release agent generic',
    ['s_waitcnt vmcnt(0) lgkmcnt(0)', VSC, 'flat_store'],
  ],
  [
    'gfx1030',
    'wgp',
    'hsa',
    'atomicrmw acq_rel workgroup global ret',
    ['s_waitcnt vmcnt(0) lgkmcnt(0)', VSC, 'global_atomic glc=1', 's_waitcnt vmcnt(0)', 'buffer_gl0_inv'],
  ],
  [
    'gfx1030',
    'wgp',
    'hsa',
    'atomicrmw acq_rel agent generic noret',
    [
      's_waitcnt vmcnt(0) lgkmcnt(0)',
      VSC,
      'flat_atomic',
      's_waitcnt lgkmcnt(0)',
      VSC,
      'buffer_gl1_inv',
      'buffer_gl0_inv',
    ],
  ],
  [
    'gfx1100',
    'wgp',
    'hsa',
    'fence acq_rel agent',
    ['s_waitcnt vmcnt(0) lgkmcnt(0)', VSC, 'buffer_gl1_inv', 'buffer_gl0_inv'],
  ],
  [
    'gfx1030',
    'wgp',
    'opencl',
    'load seq_cst workgroup local',
    ['s_waitcnt vmcnt(0)', VSC, 'ds_load', 's_waitcnt lgkmcnt(0)', 'buffer_gl0_inv'],
  ],
];

/** A GFX9.4 case: target, TgSplit execution mode, language, instruction, expected machine code. */
type TgCase = [string, 'tgsplit' | 'no-tgsplit', Lang, string, string[]];

const WB1 = 'buffer_wbinvl1_vol';

// Beyond the seeds: LLVM AMDGPUUsage.rst @f5c8b0a9, "AMDHSA Memory Model Code Sequences GFX90A".
const GFX90A: TgCase[] = [
  ['gfx90a', 'no-tgsplit', 'hsa', 'load none none global', ['global_load']],
  ['gfx90a', 'no-tgsplit', 'hsa', 'load none none global nontemporal', ['global_load glc=1 slc=1']],
  [
    'gfx90a',
    'no-tgsplit',
    'hsa',
    'load none none generic volatile',
    ['flat_load glc=1', 's_waitcnt vmcnt(0)'],
  ],
  ['gfx90a', 'no-tgsplit', 'hsa', 'store none none global nontemporal', ['global_store glc=1 slc=1']],
  ['gfx90a', 'no-tgsplit', 'hsa', 'store none none global volatile', ['global_store', 's_waitcnt vmcnt(0)']],
  ['gfx90a', 'no-tgsplit', 'hsa', 'load monotonic workgroup global', ['global_load']],
  ['gfx90a', 'tgsplit', 'hsa', 'load monotonic workgroup global', ['global_load glc=1']],
  ['gfx90a', 'no-tgsplit', 'hsa', 'load monotonic agent generic', ['flat_load glc=1']],
  ['gfx90a', 'no-tgsplit', 'hsa', 'store monotonic system global', ['global_store']],
  ['gfx90a', 'no-tgsplit', 'hsa', 'atomicrmw monotonic system global noret', ['global_atomic']],
  ['gfx90a', 'no-tgsplit', 'hsa', 'load acquire workgroup global', ['global_load']],
  [
    'gfx90a',
    'tgsplit',
    'hsa',
    'load acquire workgroup global',
    ['global_load glc=1', 's_waitcnt vmcnt(0)', WB1],
  ],
  ['gfx90a', 'no-tgsplit', 'hsa', 'load acquire workgroup local', ['ds_load', 's_waitcnt lgkmcnt(0)']],
  ['gfx90a', 'no-tgsplit', 'opencl', 'load acquire workgroup local', ['ds_load']],
  ['gfx90a', 'tgsplit', 'hsa', 'load acquire workgroup local', ['error LW2012']],
  ['gfx90a', 'tgsplit', 'hsa', 'load none none local', ['ds_load']],
  ['gfx90a', 'no-tgsplit', 'hsa', 'load acquire workgroup generic', ['flat_load', 's_waitcnt lgkmcnt(0)']],
  [
    'gfx90a',
    'tgsplit',
    'opencl',
    'load acquire workgroup generic',
    ['flat_load glc=1', 's_waitcnt vmcnt(0)', WB1],
  ],
  [
    'gfx90a',
    'no-tgsplit',
    'hsa',
    'load acquire agent global',
    ['global_load glc=1', 's_waitcnt vmcnt(0)', WB1],
  ],
  [
    'gfx90a',
    'no-tgsplit',
    'hsa',
    'load acquire system global',
    ['global_load glc=1', 's_waitcnt vmcnt(0)', 'buffer_invl2', WB1],
  ],
  [
    'gfx90a',
    'no-tgsplit',
    'hsa',
    'load acquire agent generic',
    ['flat_load glc=1', 's_waitcnt vmcnt(0) lgkmcnt(0)', WB1],
  ],
  [
    'gfx90a',
    'tgsplit',
    'hsa',
    'load acquire system generic',
    ['flat_load glc=1', 's_waitcnt vmcnt(0)', 'buffer_invl2', WB1],
  ],
  ['gfx90a', 'no-tgsplit', 'hsa', 'atomicrmw acquire workgroup global ret', ['global_atomic glc=1']],
  [
    'gfx90a',
    'tgsplit',
    'hsa',
    'atomicrmw acquire workgroup global noret',
    ['global_atomic', 's_waitcnt vmcnt(0)', WB1],
  ],
  [
    'gfx90a',
    'no-tgsplit',
    'opencl',
    'atomicrmw acquire system generic ret',
    ['flat_atomic glc=1', 's_waitcnt vmcnt(0)', 'buffer_invl2', WB1],
  ],
  ['gfx90a', 'no-tgsplit', 'hsa', 'fence acquire workgroup', ['s_waitcnt lgkmcnt(0)']],
  ['gfx90a', 'tgsplit', 'hsa', 'fence acquire workgroup', ['s_waitcnt vmcnt(0)', WB1]],
  ['gfx90a', 'no-tgsplit', 'opencl', 'fence acquire agent', ['s_waitcnt vmcnt(0) lgkmcnt(0)', WB1]],
  ['gfx90a', 'tgsplit', 'hsa', 'fence acquire system', ['s_waitcnt vmcnt(0)', 'buffer_invl2', WB1]],
  ['gfx90a', 'no-tgsplit', 'hsa', 'store release workgroup global', ['s_waitcnt lgkmcnt(0)', 'global_store']],
  ['gfx90a', 'no-tgsplit', 'opencl', 'store release workgroup global', ['global_store']],
  ['gfx90a', 'tgsplit', 'opencl', 'store release workgroup generic', ['s_waitcnt vmcnt(0)', 'flat_store']],
  ['gfx90a', 'no-tgsplit', 'hsa', 'store release workgroup local', ['ds_store']],
  ['gfx90a', 'no-tgsplit', 'opencl', 'store release agent global', ['s_waitcnt vmcnt(0)', 'global_store']],
  [
    'gfx90a',
    'no-tgsplit',
    'opencl',
    'store release agent generic',
    ['s_waitcnt vmcnt(0) lgkmcnt(0)', 'flat_store'],
  ],
  [
    'gfx90a',
    'no-tgsplit',
    'hsa',
    'store release system global',
    ['buffer_wbl2', 's_waitcnt vmcnt(0) lgkmcnt(0)', 'global_store'],
  ],
  [
    'gfx90a',
    'no-tgsplit',
    'opencl',
    'atomicrmw release agent generic noret',
    ['s_waitcnt vmcnt(0)', 'flat_atomic'],
  ],
  ['gfx90a', 'no-tgsplit', 'hsa', 'fence release system', ['buffer_wbl2', 's_waitcnt vmcnt(0) lgkmcnt(0)']],
  ['gfx90a', 'tgsplit', 'hsa', 'fence release agent', ['s_waitcnt vmcnt(0)']],
  [
    'gfx90a',
    'tgsplit',
    'hsa',
    'atomicrmw acq_rel workgroup global ret',
    ['s_waitcnt vmcnt(0)', 'global_atomic glc=1', 's_waitcnt vmcnt(0)', WB1],
  ],
  [
    'gfx90a',
    'no-tgsplit',
    'hsa',
    'atomicrmw acq_rel workgroup local ret',
    ['ds_atomic', 's_waitcnt lgkmcnt(0)'],
  ],
  [
    'gfx90a',
    'no-tgsplit',
    'hsa',
    'atomicrmw acq_rel workgroup generic noret',
    ['s_waitcnt lgkmcnt(0)', 'flat_atomic', 's_waitcnt lgkmcnt(0)'],
  ],
  [
    'gfx90a',
    'tgsplit',
    'hsa',
    'atomicrmw acq_rel workgroup generic noret',
    ['s_waitcnt vmcnt(0)', 'flat_atomic', 's_waitcnt vmcnt(0) lgkmcnt(0)', WB1],
  ],
  [
    'gfx90a',
    'no-tgsplit',
    'hsa',
    'atomicrmw acq_rel system global ret',
    [
      'buffer_wbl2',
      's_waitcnt vmcnt(0) lgkmcnt(0)',
      'global_atomic glc=1',
      's_waitcnt vmcnt(0)',
      'buffer_invl2',
      WB1,
    ],
  ],
  [
    'gfx90a',
    'no-tgsplit',
    'opencl',
    'fence acq_rel system',
    ['buffer_wbl2', 's_waitcnt vmcnt(0) lgkmcnt(0)', 'buffer_invl2', WB1],
  ],
  [
    'gfx90a',
    'no-tgsplit',
    'opencl',
    'load seq_cst workgroup global',
    ['s_waitcnt lgkmcnt(0)', 'global_load'],
  ],
  [
    'gfx90a',
    'tgsplit',
    'hsa',
    'load seq_cst agent generic',
    ['s_waitcnt vmcnt(0)', 'flat_load glc=1', 's_waitcnt vmcnt(0)', WB1],
  ],
  ['gfx90a', 'no-tgsplit', 'opencl', 'load seq_cst workgroup local', ['ds_load', 's_waitcnt lgkmcnt(0)']],
  [
    'gfx90a',
    'no-tgsplit',
    'opencl',
    'store seq_cst workgroup global',
    ['s_waitcnt lgkmcnt(0)', 'global_store'],
  ],
];

// Beyond the seeds: LLVM AMDGPUUsage.rst @f5c8b0a9, "AMDHSA Memory Model Code Sequences GFX942".
const GFX942: TgCase[] = [
  ['gfx942', 'no-tgsplit', 'hsa', 'load none none global nontemporal', ['global_load nt=1']],
  [
    'gfx942',
    'no-tgsplit',
    'hsa',
    'store none none generic volatile',
    ['flat_store sc0=1 sc1=1', 's_waitcnt vmcnt(0)'],
  ],
  ['gfx942', 'no-tgsplit', 'hsa', 'load monotonic workgroup global', ['global_load sc0=1']],
  ['gfx942', 'no-tgsplit', 'hsa', 'load monotonic agent generic', ['flat_load sc1=1']],
  ['gfx942', 'no-tgsplit', 'hsa', 'store monotonic system global', ['global_store sc0=1 sc1=1']],
  ['gfx942', 'no-tgsplit', 'hsa', 'atomicrmw monotonic agent global noret', ['global_atomic']],
  ['gfx942', 'no-tgsplit', 'hsa', 'atomicrmw monotonic system global ret', ['global_atomic sc0=1 sc1=1']],
  ['gfx942', 'no-tgsplit', 'hsa', 'load acquire workgroup global', ['global_load sc0=1']],
  [
    'gfx942',
    'tgsplit',
    'hsa',
    'load acquire workgroup global',
    ['global_load sc0=1', 's_waitcnt vmcnt(0)', 'buffer_inv sc0=1'],
  ],
  [
    'gfx942',
    'no-tgsplit',
    'hsa',
    'load acquire agent global',
    ['global_load sc1=1', 's_waitcnt vmcnt(0)', 'buffer_inv sc1=1'],
  ],
  [
    'gfx942',
    'no-tgsplit',
    'opencl',
    'load acquire system generic',
    ['flat_load sc0=1 sc1=1', 's_waitcnt vmcnt(0)', 'buffer_inv sc0=1 sc1=1'],
  ],
  [
    'gfx942',
    'no-tgsplit',
    'hsa',
    'atomicrmw acquire system global noret',
    ['global_atomic sc1=1', 's_waitcnt vmcnt(0)', 'buffer_inv sc0=1 sc1=1'],
  ],
  ['gfx942', 'tgsplit', 'hsa', 'fence acquire workgroup', ['s_waitcnt vmcnt(0)', 'buffer_inv sc0=1']],
  [
    'gfx942',
    'no-tgsplit',
    'hsa',
    'fence acquire agent',
    ['s_waitcnt vmcnt(0) lgkmcnt(0)', 'buffer_inv sc1=1'],
  ],
  [
    'gfx942',
    'no-tgsplit',
    'hsa',
    'store release workgroup global',
    ['s_waitcnt lgkmcnt(0)', 'global_store sc0=1'],
  ],
  [
    'gfx942',
    'no-tgsplit',
    'hsa',
    'store release agent global',
    ['buffer_wbl2 sc1=1', 's_waitcnt vmcnt(0) lgkmcnt(0)', 'global_store sc1=1'],
  ],
  [
    'gfx942',
    'tgsplit',
    'hsa',
    'store release system generic',
    ['buffer_wbl2 sc0=1 sc1=1', 's_waitcnt vmcnt(0)', 'flat_store sc0=1 sc1=1'],
  ],
  [
    'gfx942',
    'no-tgsplit',
    'hsa',
    'atomicrmw release workgroup global noret',
    ['s_waitcnt lgkmcnt(0)', 'global_atomic sc0=1'],
  ],
  [
    'gfx942',
    'no-tgsplit',
    'opencl',
    'atomicrmw release agent global noret',
    ['buffer_wbl2 sc1=1', 's_waitcnt vmcnt(0)', 'global_atomic sc1=1'],
  ],
  [
    'gfx942',
    'no-tgsplit',
    'hsa',
    'fence release agent',
    ['buffer_wbl2 sc1=1', 's_waitcnt vmcnt(0) lgkmcnt(0)'],
  ],
  [
    'gfx942',
    'no-tgsplit',
    'hsa',
    'atomicrmw acq_rel agent global ret',
    [
      'buffer_wbl2 sc1=1',
      's_waitcnt vmcnt(0) lgkmcnt(0)',
      'global_atomic sc0=1',
      's_waitcnt vmcnt(0)',
      'buffer_inv sc1=1',
    ],
  ],
  [
    'gfx942',
    'no-tgsplit',
    'hsa',
    'atomicrmw acq_rel system generic noret',
    [
      'buffer_wbl2 sc0=1 sc1=1',
      's_waitcnt vmcnt(0) lgkmcnt(0)',
      'flat_atomic sc1=1',
      's_waitcnt vmcnt(0) lgkmcnt(0)',
      'buffer_inv sc0=1 sc1=1',
    ],
  ],
  [
    'gfx942',
    'no-tgsplit',
    'hsa',
    'fence seq_cst system',
    ['buffer_wbl2 sc0=1 sc1=1', 's_waitcnt vmcnt(0) lgkmcnt(0)', 'buffer_inv sc0=1 sc1=1'],
  ],
  [
    'gfx950',
    'no-tgsplit',
    'hsa',
    'load acquire agent global',
    ['global_load sc1=1', 's_waitcnt vmcnt(0)', 'buffer_inv sc1=1'],
  ],
  ['gfx942', 'tgsplit', 'hsa', 'atomicrmw monotonic workgroup local', ['error LW2012']],
];

// GFX125x: AMDGPUUsage 07379fed (sailfishos-mirror/llvm-project), table "AMDHSA Memory Model Code
// Sequences GFX125x" and its Instruction Scopes table; one wavefront mode, so the mode column is unused.
const XC = 's_wait_xcnt 0x0';
const SC = 's_wait_storecnt 0x0';
const LC = 's_wait_loadcnt 0x0';
const DC = 's_wait_dscnt 0x0';

const GFX1250: Case[] = [
  // Non-Atomic
  ['gfx1250', 'wgp', 'hsa', 'load none none global nontemporal', ['global_load th:TH_LOAD_NT']],
  ['gfx1250', 'wgp', 'hsa', 'load none none generic volatile', ['flat_load scope:SCOPE_SYS', LC]],
  ['gfx1250', 'wgp', 'hsa', 'store none none private volatile', ['scratch_store scope:SCOPE_SYS', SC]],
  ['gfx1250', 'wgp', 'hsa', 'store none none local', ['ds_store']],
  // Monotonic
  ['gfx1250', 'wgp', 'hsa', 'load monotonic cluster global', ['global_load scope:SCOPE_SE']],
  ['gfx1250', 'wgp', 'hsa', 'load monotonic workgroup generic', ['flat_load']],
  ['gfx1250', 'wgp', 'hsa', 'store monotonic system global', [XC, 'global_store scope:SCOPE_SYS']],
  ['gfx1250', 'wgp', 'hsa', 'store monotonic workgroup local', ['ds_store']],
  [
    'gfx1250',
    'wgp',
    'hsa',
    'atomicrmw monotonic agent generic',
    [XC, 'flat_atomic th:TH_ATOMIC_RETURN scope:SCOPE_DEV'],
  ],
  // Acquire
  ['gfx1250', 'wgp', 'hsa', 'load acquire wavefront generic', ['flat_load']],
  ['gfx1250', 'wgp', 'hsa', 'load acquire workgroup global', ['global_load', LC]],
  ['gfx1250', 'wgp', 'opencl', 'load acquire workgroup local', ['ds_load']],
  [
    'gfx1250',
    'wgp',
    'hsa',
    'load acquire cluster global',
    ['global_load scope:SCOPE_SE', LC, 'global_inv scope:SCOPE_SE'],
  ],
  [
    'gfx1250',
    'wgp',
    'opencl',
    'load acquire system generic',
    ['flat_load scope:SCOPE_SYS', LC, 'global_inv scope:SCOPE_SYS', LC],
  ],
  ['gfx1250', 'wgp', 'hsa', 'atomicrmw acquire workgroup global noret', [XC, 'global_atomic', SC]],
  ['gfx1250', 'wgp', 'hsa', 'atomicrmw acquire wavefront local', ['ds_atomic']],
  [
    'gfx1250',
    'wgp',
    'hsa',
    'atomicrmw acquire cluster generic',
    [XC, 'flat_atomic th:TH_ATOMIC_RETURN scope:SCOPE_SE', LC, DC, 'global_inv scope:SCOPE_SE'],
  ],
  [
    'gfx1250',
    'wgp',
    'hsa',
    'atomicrmw acquire agent global noret',
    [XC, 'global_atomic scope:SCOPE_DEV', SC, 'global_inv scope:SCOPE_DEV', LC],
  ],
  ['gfx1250', 'wgp', 'hsa', 'fence acquire singlethread', []],
  ['gfx1250', 'wgp', 'opencl', 'fence acquire workgroup', [SC, LC]],
  ['gfx1250', 'wgp', 'hsa', 'fence acquire cluster', [SC, LC, DC, 'global_inv scope:SCOPE_SE']],
  ['gfx1250', 'wgp', 'hsa', 'fence acquire system', [SC, LC, DC, 'global_inv scope:SCOPE_SYS', LC]],
  // Release
  ['gfx1250', 'wgp', 'hsa', 'store release wavefront global', [XC, 'global_store']],
  ['gfx1250', 'wgp', 'hsa', 'store release cluster generic', [SC, LC, DC, XC, 'flat_store scope:SCOPE_SE']],
  ['gfx1250', 'wgp', 'opencl', 'store release workgroup global', [SC, LC, XC, 'global_store']],
  ['gfx1250', 'wgp', 'opencl', 'store release workgroup local', ['ds_store']],
  [
    'gfx1250',
    'wgp',
    'hsa',
    'store release agent global',
    [LC, SC, 'global_wb scope:SCOPE_DEV', SC, LC, DC, XC, 'global_store scope:SCOPE_DEV'],
  ],
  ['gfx1250', 'wgp', 'hsa', 'atomicrmw release workgroup local noret', [SC, LC, DC, 'ds_atomic']],
  [
    'gfx1250',
    'wgp',
    'opencl',
    'atomicrmw release system generic noret',
    [LC, SC, 'global_wb scope:SCOPE_SYS', SC, LC, XC, 'flat_atomic scope:SCOPE_SYS'],
  ],
  ['gfx1250', 'wgp', 'hsa', 'fence release cluster', [SC, LC, DC]],
  ['gfx1250', 'wgp', 'opencl', 'fence release agent', [LC, SC, 'global_wb scope:SCOPE_DEV', SC, LC]],
  // Acquire-Release
  ['gfx1250', 'wgp', 'hsa', 'atomicrmw acq_rel singlethread generic noret', [XC, 'flat_atomic']],
  [
    'gfx1250',
    'wgp',
    'hsa',
    'atomicrmw acq_rel workgroup global',
    [SC, LC, DC, XC, 'global_atomic th:TH_ATOMIC_RETURN', LC],
  ],
  ['gfx1250', 'wgp', 'hsa', 'atomicrmw acq_rel workgroup local noret', [SC, LC, DC, 'ds_atomic', DC]],
  ['gfx1250', 'wgp', 'opencl', 'atomicrmw acq_rel workgroup local noret', ['ds_atomic']],
  [
    'gfx1250',
    'wgp',
    'hsa',
    'atomicrmw acq_rel workgroup generic noret',
    [SC, LC, DC, XC, 'flat_atomic', DC, SC],
  ],
  [
    'gfx1250',
    'wgp',
    'hsa',
    'atomicrmw acq_rel system global noret',
    [
      LC,
      SC,
      'global_wb scope:SCOPE_SYS',
      SC,
      LC,
      DC,
      XC,
      'global_atomic scope:SCOPE_SYS',
      SC,
      'global_inv scope:SCOPE_SYS',
      LC,
    ],
  ],
  ['gfx1250', 'wgp', 'opencl', 'fence acq_rel workgroup', [SC, LC, DC]],
  [
    'gfx1250',
    'wgp',
    'hsa',
    'fence acq_rel agent',
    [LC, SC, 'global_wb scope:SCOPE_DEV', SC, LC, DC, 'global_inv scope:SCOPE_DEV', LC],
  ],
  // Sequentially consistent
  ['gfx1250', 'wgp', 'opencl', 'load seq_cst workgroup local', ['ds_load', DC]],
  ['gfx1250', 'wgp', 'opencl', 'load seq_cst workgroup global', [SC, LC, 'global_load', LC]],
  [
    'gfx1250',
    'wgp',
    'hsa',
    'load seq_cst agent generic',
    [SC, LC, DC, 'flat_load scope:SCOPE_DEV', LC, DC, 'global_inv scope:SCOPE_DEV', LC],
  ],
  ['gfx1250', 'wgp', 'opencl', 'store seq_cst workgroup local', [SC, LC, DC, 'ds_store']],
  ['gfx1250', 'wgp', 'opencl', 'fence seq_cst wavefront', []],
  // Syncscope -one-as maps like its plain scope (Instruction Scopes table).
  ['gfx1250', 'wgp', 'hsa', 'load monotonic agent-one-as global', ['global_load scope:SCOPE_DEV']],
  // Scratch atomics of 32 bits or less are converted to generic atomics (Memory Model GFX125x text).
  ['gfx1251', 'wgp', 'hsa', 'store monotonic agent private', [XC, 'flat_store scope:SCOPE_DEV']],
];

/**
 * The av intrinsics: no document has a row; the rule (lower.ts `lowerAvCell`) takes the monotonic
 * atomic load/store row of the scope on global memory, at 128 bits (`_dwordx4` up to GFX10, `_b128`
 * from GFX11), without GFX12.5's `s_wait_xcnt`. Expected sequences written from each family's monotonic
 * rows by hand. `tg`: TgSplit mode (GFX90A, GFX942).
 */
const AV: [target: string, mode: 'cu' | 'wgp' | 'tg', desc: string, expected: string[]][] = [
  // GFX6-9: "load atomic monotonic agent/system global" buffer/global_load glc=1; workgroup and
  // narrower without glc; "store atomic monotonic" buffer/global_store at every scope.
  ['gfx600', 'cu', 'avload agent', ['buffer_load_dwordx4 glc=1']],
  ['gfx600', 'cu', 'avstore workgroup', ['buffer_store_dwordx4']],
  ['gfx803', 'cu', 'avload workgroup', ['buffer_load_dwordx4']],
  ['gfx900', 'cu', 'avload system', ['global_load_dwordx4 glc=1']],
  ['gfx900', 'cu', 'avload cluster', ['global_load_dwordx4 glc=1']],
  ['gfx900', 'cu', 'avstore agent', ['global_store_dwordx4']],
  // GFX90A: workgroup loads take glc=1 in TgSplit mode only.
  ['gfx90a', 'cu', 'avload workgroup', ['global_load_dwordx4']],
  ['gfx90a', 'tg', 'avload workgroup', ['global_load_dwordx4 glc=1']],
  ['gfx90a', 'cu', 'avload agent', ['global_load_dwordx4 glc=1']],
  ['gfx90a', 'cu', 'avstore system', ['global_store_dwordx4']],
  // GFX942: the scope bits, workgroup sc0, agent sc1, system sc0 sc1, on loads and stores.
  ['gfx942', 'cu', 'avload wavefront', ['global_load_dwordx4']],
  ['gfx942', 'cu', 'avload workgroup', ['global_load_dwordx4 sc0=1']],
  ['gfx942', 'tg', 'avload workgroup', ['global_load_dwordx4 sc0=1']],
  ['gfx942', 'cu', 'avstore agent', ['global_store_dwordx4 sc1=1']],
  ['gfx950', 'cu', 'avstore system', ['global_store_dwordx4 sc0=1 sc1=1']],
  // GFX10: workgroup loads glc=1 in WGP mode; agent loads glc=1 dlc=1. GFX11: no dlc, `_b128`.
  ['gfx1030', 'cu', 'avload workgroup', ['global_load_dwordx4']],
  ['gfx1030', 'wgp', 'avload workgroup', ['global_load_dwordx4 glc=1']],
  ['gfx1030', 'wgp', 'avload agent', ['global_load_dwordx4 glc=1 dlc=1']],
  ['gfx1030', 'wgp', 'avstore agent', ['global_store_dwordx4']],
  ['gfx1100', 'wgp', 'avload workgroup', ['global_load_b128 glc=1']],
  ['gfx1100', 'cu', 'avload agent', ['global_load_b128 glc=1']],
  ['gfx1100', 'wgp', 'avstore system', ['global_store_b128']],
  // GFX12: the Instruction Scopes table.
  ['gfx1200', 'cu', 'avstore workgroup', ['global_store_b128']],
  ['gfx1200', 'wgp', 'avstore workgroup', ['global_store_b128 scope:SCOPE_SE']],
  ['gfx1200', 'wgp', 'avload agent', ['global_load_b128 scope:SCOPE_DEV']],
  ['gfx1200', 'cu', 'avload cluster', ['global_load_b128 scope:SCOPE_DEV']],
  ['gfx1201', 'wgp', 'avload system', ['global_load_b128 scope:SCOPE_SYS']],
  // GFX12.5: cluster SCOPE_SE; the store without the atomic row's s_wait_xcnt.
  ['gfx1250', 'wgp', 'avload workgroup', ['global_load_b128']],
  ['gfx1250', 'wgp', 'avstore cluster', ['global_store_b128 scope:SCOPE_SE']],
  ['gfx1250', 'wgp', 'avstore agent', ['global_store_b128 scope:SCOPE_DEV']],
  // Intel Xe: no lowering.
  ['dg2', 'cu', 'avload agent', ['error LW2008']],
  ['pvc', 'cu', 'avstore workgroup', ['error LW2008']],
  ['lnl', 'cu', 'avstore system', ['error LW2008']],
];

describe('av intrinsics: the monotonic row of the scope at 128 bits, by hand', () => {
  it.each(AV)('%s %s: %s', (target, mode, desc, expected) => {
    const tg = mode === 'tg';
    expect(lowerText(target, desc, tg ? 'cu' : mode, 'hsa', tg)).toEqual(expected);
    // The intrinsics have no language clause: OpenCL lowers them alike.
    expect(lowerText(target, desc, tg ? 'cu' : mode, 'opencl', tg)).toEqual(expected);
  });
});

describe('GFX6-9 table rows, transcribed by hand', () => {
  it.each(GFX6_9)('%s %s %s: %s', (target, mode, lang, desc, expected) => {
    expect(lowerText(target, desc, mode, lang)).toEqual(expected);
  });
});

describe('GFX12 table rows, transcribed by hand', () => {
  it.each(GFX12)('%s %s %s: %s', (target, mode, lang, desc, expected) => {
    expect(lowerText(target, desc, mode, lang)).toEqual(expected);
  });
});

describe('GFX10-11 table rows (current LLVM document), transcribed by hand', () => {
  it.each(GFX10_11)('%s %s %s: %s', (target, mode, lang, desc, expected) => {
    expect(lowerText(target, desc, mode, lang)).toEqual(expected);
  });
});

describe('GFX90A table rows (AMDGPUUsage f5c8b0a9), transcribed by hand', () => {
  it.each(GFX90A)('%s %s %s: %s', (target, tg, lang, desc, expected) => {
    expect(lowerText(target, desc, 'cu', lang, tg === 'tgsplit')).toEqual(expected);
  });
});

describe('GFX942 table rows (AMDGPUUsage f5c8b0a9), transcribed by hand', () => {
  it.each(GFX942)('%s %s %s: %s', (target, tg, lang, desc, expected) => {
    expect(lowerText(target, desc, 'cu', lang, tg === 'tgsplit')).toEqual(expected);
  });
});

describe('GFX125x table rows (AMDGPUUsage 07379fed), transcribed by hand', () => {
  it.each(GFX1250)('%s %s %s: %s', (target, mode, lang, desc, expected) => {
    expect(lowerText(target, desc, mode, lang)).toEqual(expected);
  });
});

describe('seeds/001 barrier rows, transcribed by hand', () => {
  it('GFX6-11 without BackOffBarrier waits for every counter first', () => {
    expect(lowerText('gfx900', barrierOf('barrier'))).toEqual([
      's_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)',
      's_barrier',
    ]);
  });
  it('GFX6-11 with BackOffBarrier is a bare s_barrier', () => {
    expect(lowerText('gfx90a', barrierOf('barrier'))).toEqual(['s_barrier']);
    expect(lowerText('gfx1030', barrierOf('barrier'))).toEqual(['s_barrier']);
  });
  it('GFX6-11 have no split barrier', () => {
    expect(lowerText('gfx900', barrierOf('signal', -1))).toEqual(['error LW2006']);
  });
  it('GFX12 arrive then wait on the workgroup barrier -1', () => {
    expect(lowerText('gfx1200', barrierOf('barrier'))).toEqual(['s_barrier_signal -1', 's_barrier_wait -1']);
    expect(lowerText('gfx1200', barrierOf('signal_isfirst', -1))).toEqual(['s_barrier_signal_isfirst -1']);
  });
  it('GFX12 cannot name cluster or trap barriers; GFX12.5 has named barriers', () => {
    expect(lowerText('gfx1200', barrierOf('signal', -3))).toEqual(['error LW2007']);
    expect(lowerText('gfx1250', barrierOf('signal', -3))).toEqual(['s_barrier_signal -3']);
    expect(lowerText('gfx1250', barrierOf('wait', -2))).toEqual(['error LW2007']);
    expect(lowerText('gfx1250', { ...barrierOf('init', null, 'nb'), count: 3 } as Instr)).toEqual([
      's_mov_b32 m0, 0x30001',
      's_barrier_init m0',
    ]);
    expect(lowerText('gfx1250', barrierOf('join', null, 'nb'))).toEqual([
      's_mov_b32 m0, 0x1',
      's_barrier_join m0',
    ]);
    // signal.var: the member count in m0[22:16], the id in the low bits (seeds/001 "arrive [1, 16]").
    expect(lowerText('gfx1250', { ...barrierOf('signal_var', null, 'nb'), count: 5 } as Instr)).toEqual([
      's_mov_b32 m0, 0x50001',
      's_barrier_signal m0',
    ]);
    expect(lowerText('gfx1250', { ...barrierOf('init', null, 'nb'), count: 128 } as Instr)).toEqual([
      'error LW2013',
    ]);
    expect(lowerText('gfx1250', barrierOf('leave', 1))).toEqual(['s_barrier_leave']);
    expect(lowerText('gfx1200', barrierOf('join', null, 'nb'))).toEqual(['error LW2006']);
  });
});
