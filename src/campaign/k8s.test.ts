import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gpumm, ROOT } from '../cli/testing.ts';
import { parseShard } from './shard.ts';
import { fakeCalls, fakeProgram, parseCampaign } from './slurm-cluster.ts';

// The manifests are block-style YAML, with comments (the merge step is explained in one). No YAML
// library is a dependency, and none is added for one test: `readYaml` reads the subset they use
// and throws on anything else (anchors, tags, flow mappings, folded scalars, tabs), so a manifest
// edited beyond the subset fails here rather than being read wrongly.

type Yaml = string | number | boolean | null | Yaml[] | { [k: string]: Yaml };

interface Line {
  readonly no: number;
  readonly indent: number;
  readonly text: string;
}

/** The documents of a YAML file written in the subset described above. */
function readYaml(source: string): Yaml[] {
  const docs: Line[][] = [[]];
  const raw = source.split('\n');
  for (const [k, l] of raw.entries()) {
    if (l.includes('\t')) throw new Error(`line ${k + 1}: a tab`);
    if (l === '---') docs.push([]);
    else docs.at(-1)!.push({ no: k + 1, indent: l.length - l.trimStart().length, text: l.trim() });
  }
  return docs.map((lines) => {
    const r = new Reader([...lines]);
    const v = r.node(0);
    r.skipComments();
    if (r.k < lines.length) throw new Error(`line ${lines[r.k]!.no}: unexpected indentation`);
    return v;
  });
}

class Reader {
  k = 0;
  constructor(private readonly lines: Line[]) {}

  skipComments(): void {
    while (
      this.k < this.lines.length &&
      (this.lines[this.k]!.text === '' || this.lines[this.k]!.text.startsWith('#'))
    )
      this.k++;
  }

  /** The block at the next line, which must be indented at least `min`. */
  node(min: number): Yaml {
    this.skipComments();
    const l = this.lines[this.k];
    if (!l || l.indent < min) return null;
    return l.text.startsWith('- ') || l.text === '-' ? this.sequence(l.indent) : this.mapping(l.indent);
  }

  private sequence(indent: number): Yaml[] {
    const out: Yaml[] = [];
    for (this.skipComments(); this.k < this.lines.length; this.skipComments()) {
      const l = this.lines[this.k]!;
      if (l.indent !== indent || !l.text.startsWith('-')) break;
      const rest = l.text.slice(1).trimStart();
      if (rest === '') {
        this.k++;
        out.push(this.node(indent + 1));
      } else if (/^[A-Za-z_][\w.-]*:( |$)/.test(rest)) {
        // `- key: value`: a mapping whose first key is on the dash's line, the others under it.
        const at = indent + l.text.length - rest.length;
        this.lines[this.k] = { no: l.no, indent: at, text: rest };
        out.push(this.mapping(at));
      } else {
        this.k++;
        out.push(this.scalarOrBlock(rest, indent, l.no));
      }
    }
    return out;
  }

  private mapping(indent: number): { [k: string]: Yaml } {
    const out: { [k: string]: Yaml } = {};
    for (this.skipComments(); this.k < this.lines.length; this.skipComments()) {
      const l = this.lines[this.k]!;
      if (l.indent !== indent) break;
      const m = /^([A-Za-z_][\w.-]*):(?: (.*))?$/.exec(l.text);
      if (!m) throw new Error(`line ${l.no}: expected key: value, found ${l.text}`);
      if (m[1]! in out) throw new Error(`line ${l.no}: ${m[1]} twice`);
      this.k++;
      out[m[1]!] = m[2] === undefined ? this.node(indent + 1) : this.scalarOrBlock(m[2], indent, l.no);
    }
    return out;
  }

  /** A scalar on its key's line, or `|`: the lines below, indented more than `indent`, as text. */
  private scalarOrBlock(text: string, indent: number, no: number): Yaml {
    if (text !== '|') return scalar(text, no);
    const body: string[] = [];
    let own = -1;
    while (this.k < this.lines.length) {
      const l = this.lines[this.k]!;
      if (l.text !== '' && l.indent <= indent) break;
      if (own < 0 && l.text !== '') own = l.indent;
      body.push(l.text === '' ? '' : ' '.repeat(l.indent - own) + l.text);
      this.k++;
    }
    return `${body.join('\n').trimEnd()}\n`;
  }
}

function scalar(text: string, no: number): Yaml {
  if (text.startsWith('"') || text.startsWith('[')) return JSON.parse(text) as Yaml;
  if (text.startsWith("'")) return text.slice(1, -1).replaceAll("''", "'");
  // Anchors, aliases, tags, folded and flow mappings; a comment after a value.
  if (/^[&*!>{]/.test(text) || / #/.test(text)) throw new Error(`line ${no}: outside the subset: ${text}`);
  if (/^-?\d+$/.test(text)) return Number(text);
  if (text === 'true' || text === 'false') return text === 'true';
  if (text === 'null' || text === '~') return null;
  return text;
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** `v[path…]`, each step an object key or an array index: the test fails on a missing step. */
function at(v: Yaml, ...path: (string | number)[]): Yaml {
  let cur: Yaml = v;
  for (const p of path) {
    const next: Yaml | undefined =
      typeof p === 'number'
        ? Array.isArray(cur)
          ? cur[p]
          : undefined
        : cur && typeof cur === 'object' && !Array.isArray(cur)
          ? cur[p]
          : undefined;
    if (next === undefined) throw new Error(`no ${path.join('.')} (stopped at ${p})`);
    cur = next;
  }
  return cur;
}

/** Runs a container's `/bin/sh -c SCRIPT` as its pod would, `node` a fake: gpumm's arguments. */
function runContainer(script: string, env: Record<string, string>, cwd: string): string[] {
  const bin = mkdtempSync(join(tmpdir(), 'gpumm-k8s-'));
  dirs.push(bin);
  const node = fakeProgram(bin, 'node');
  const r = spawnSync('/bin/sh', ['-c', script], {
    cwd,
    env: { PATH: `${bin}:${process.env.PATH}`, ...env },
  });
  expect(r.status, String(r.stderr)).toBe(0);
  const calls = fakeCalls(node);
  expect(calls).toHaveLength(1);
  return calls[0]!;
}

describe('the YAML subset the manifests are read with', () => {
  it('reads mappings, sequences of scalars and of mappings, literal blocks, comments, documents', () => {
    const text = [
      '# a comment',
      'a: 1',
      'b:',
      '  - x',
      '  # between items',
      '  - k: "q # not a comment"',
      '    l: true',
      '  - |',
      '    line one',
      '      # kept: inside the block',
      'c: [1, "two"]',
      '---',
      "d: 'it''s'",
    ].join('\n');
    expect(readYaml(text)).toEqual([
      {
        a: 1,
        b: ['x', { k: 'q # not a comment', l: true }, 'line one\n  # kept: inside the block\n'],
        c: [1, 'two'],
      },
      { d: "it's" },
    ]);
  });

  it('refuses what it does not read, rather than read it wrongly', () => {
    for (const bad of ['a: &x 1', 'a: b # c', 'a: >', 'a: {b: 1}', 'a: 1\na: 2', 'a:\n\t- 1', 'a: 1\n  b: 2'])
      expect(() => readYaml(bad), bad).toThrow();
  });
});

describe('docs/k8s: a campaign as a Kubernetes Indexed Job', () => {
  const docs = readYaml(readFileSync(join(ROOT, 'docs', 'k8s', 'campaign-job.yaml'), 'utf8'));
  const merge = readYaml(readFileSync(join(ROOT, 'docs', 'k8s', 'campaign-merge.yaml'), 'utf8'));
  const claim = docs.find((d) => at(d, 'kind') === 'PersistentVolumeClaim')!;
  const job = docs.find((d) => at(d, 'kind') === 'Job')!;
  const container = at(job, 'spec', 'template', 'spec', 'containers', 0);
  const script = at(container, 'command', 2) as string;

  it('is an Indexed Job of as many pods as shards, all at once, on a volume every pod may write', () => {
    expect(docs.map((d) => at(d, 'kind'))).toEqual(['PersistentVolumeClaim', 'Job']);
    expect(at(job, 'apiVersion')).toBe('batch/v1');
    expect(at(job, 'spec', 'completionMode')).toBe('Indexed');
    const count = Number(/--shard "\$JOB_COMPLETION_INDEX\/(\d+)"/.exec(script)?.[1]);
    expect(at(job, 'spec', 'completions')).toBe(count);
    expect(at(job, 'spec', 'parallelism')).toBe(count);
    expect(at(job, 'spec', 'template', 'spec', 'restartPolicy')).toBe('Never');
    expect(at(container, 'command', 0)).toBe('/bin/sh');
    expect(at(container, 'command', 1)).toBe('-c');
    expect(at(claim, 'spec', 'accessModes')).toEqual(['ReadWriteMany']);
    for (const j of [job, merge[0]!]) {
      const pod = at(j, 'spec', 'template', 'spec');
      expect(at(pod, 'volumes', 0, 'persistentVolumeClaim', 'claimName')).toBe(at(claim, 'metadata', 'name'));
      expect(at(pod, 'containers', 0, 'volumeMounts', 0)).toEqual({
        name: at(pod, 'volumes', 0, 'name'),
        mountPath: '/results',
      });
    }
  });

  it("runs in pod i the real campaign's shard i/n into /results/results-i.jsonl, resumed", async () => {
    const count = at(job, 'spec', 'completions') as number;
    // The image's working folder, with a catalogue of two tests for the glob to find.
    const work = mkdtempSync(join(tmpdir(), 'gpumm-k8s-'));
    dirs.push(work);
    expect(at(container, 'workingDir')).toBe('/gpumm');
    mkdirSync(join(work, 'litmus'));
    for (const t of ['a', 'b']) writeFileSync(join(work, 'litmus', `${t}.litmus`), '');
    for (let i = 0; i < count; i++) {
      const args = runContainer(script, { JOB_COMPLETION_INDEX: String(i) }, work);
      expect(args.slice(0, 2)).toEqual(['/gpumm/bin/gpumm.js', 'campaign']);
      const { command, files, opts } = await parseCampaign(args.slice(2));
      expect(command).toBe('run');
      expect(files).toEqual(['litmus/a.litmus', 'litmus/b.litmus']);
      expect(parseShard(opts.shard as string)).toEqual({ index: i, count });
      expect(opts.out).toBe(`/results/results-${i}.jsonl`);
      expect(opts.resume).toBe(true);
      // Each pod asks for the CPUs its campaign's workers use.
      expect(String(opts.workers)).toBe(at(container, 'resources', 'requests', 'cpu'));
    }
  });

  it('names targets gpumm knows', () => {
    const targets = /--targets (\S+)/.exec(script)?.[1];
    expect(targets).toBeDefined();
    const r = gpumm('lower', '--target', targets!, 'litmus/MP+rel+acq.agent.litmus');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('merges, in a Job of its own, every shard on the volume into /results/merged.jsonl', async () => {
    expect(merge.map((d) => at(d, 'kind'))).toEqual(['Job']);
    const c = at(merge[0]!, 'spec', 'template', 'spec', 'containers', 0);
    // No /results here: the glob stays as written, which is the pattern of the shards' files.
    const args = runContainer(at(c, 'command', 2) as string, {}, tmpdir());
    const { command, files, opts } = await parseCampaign(args.slice(2));
    expect(command).toBe('merge');
    expect(files).toEqual(['/results/results-*.jsonl']);
    expect(opts.out).toBe('/results/merged.jsonl');
  });
});
