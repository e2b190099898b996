/**
 * The hardware check: `gpumm check`'s verdict for every target with a machine, and for one of them
 * the machine's outcomes against the model's; any machine outcome (the forbidden one first) can be
 * stepped through on a picture of the machine's caches, queues and waves.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { CheckResult } from '../../src/check/check.ts';
import { verdictText } from '../../src/check/verdict-text.ts';
import type { EngineClient } from './client.ts';
import { checkRuns } from './engine/choices.ts';
import type { MachineStateView, TargetChoice, TargetInfo, TraceResult } from './engine/protocol.ts';

function values(v: Record<string, number | 'undef'>): string {
  return Object.entries(v)
    .map(([k, x]) => `${k}=${x};`)
    .join(' ');
}

/** The mode column: CU or WGP where the target has both, TgSplit for that configuration, else a dash. */
function modeText(c: TargetChoice, targets: TargetInfo[]): string {
  if (c.tgsplit) return 'TgSplit';
  return targets.find((t) => t.name === c.target)?.wgpMode ? c.mode.toUpperCase() : '—';
}

function MachinePicture({ trace, at }: { trace: TraceResult; at: number }) {
  const s: MachineStateView = trace.states[at]!;
  const prev = trace.states[Math.max(0, at - 1)]!;
  const m = trace.machine;
  const fmt = (v: number | null) => (v === null ? 'undef' : String(v));
  return (
    <div class="machine" data-testid="machine">
      <table class="caches">
        <thead>
          <tr>
            <th>location</th>
            {m.caches.map((c) => (
              <th key={c.name} class={`lvl${c.level}`}>
                {c.name}
              </th>
            ))}
            <th title="what lies behind the last cache level, named as the machine's traces name it">
              {m.memory}
            </th>
          </tr>
        </thead>
        <tbody>
          {m.locs.map((l, li) => (
            <tr key={l}>
              <th>{l}</th>
              {m.caches.map((c, ci) => {
                const line = s.lines[ci]![li]!;
                const was = prev.lines[ci]![li]!;
                const changed = line.st !== was.st || line.val !== was.val;
                return (
                  <td key={c.name} class={`line ${line.st} ${changed && at > 0 ? 'changed' : ''}`}>
                    {line.st === 'absent' ? '—' : `${fmt(line.val)}${line.st === 'dirty' ? ' (dirty)' : ''}`}
                  </td>
                );
              })}
              <td class={`line mem ${s.mem[li] !== prev.mem[li] && at > 0 ? 'changed' : ''}`}>
                {fmt(s.mem[li]!)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div class="waves">
        {m.threads.map((t, k) => (
          <div class="wave" key={t.name}>
            <div class="wave-name">{t.name}</div>
            <ol class="mcode">
              {t.code.map((c, i) => (
                <li key={`${i}:${c}`} class={i === s.pcs[k] ? 'pc' : i < s.pcs[k]! ? 'done' : ''}>
                  {c}
                </li>
              ))}
              {s.pcs[k]! >= t.code.length && <li class="pc end">(finished)</li>}
            </ol>
            <div class="regs">
              {t.regs.map((r, i) => (
                <span key={r} class={s.regs[k]![i] !== prev.regs[k]![i] ? 'changed' : ''}>
                  {r}={fmt(s.regs[k]![i]!)}
                </span>
              ))}
            </div>
          </div>
        ))}
      </div>
      <div class="queues">
        <b>Outstanding requests</b>
        {s.queues.every((q) => q.length === 0) ? (
          <span class="muted"> none</span>
        ) : (
          s.queues.map((q, k) => q.length > 0 && <div key={`q${k}`}>{q.join(' · ')}</div>)
        )}
      </div>
    </div>
  );
}

function TraceView({ trace }: { trace: TraceResult }) {
  const [at, setAt] = useState(0);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    setAt(0);
    box.current?.scrollIntoView({ block: 'start' });
  }, [trace]);
  const n = trace.steps.length;
  const steps = useRef<HTMLOListElement>(null);
  useEffect(() => {
    steps.current?.querySelector('li.current')?.scrollIntoView({ block: 'nearest' });
  }, [at]);
  return (
    <div class="trace" data-testid="trace" ref={box}>
      <div class="toolbar">
        <button type="button" onClick={() => setAt(0)} disabled={at === 0}>
          « first
        </button>
        <button
          type="button"
          onClick={() => setAt(Math.max(0, at - 1))}
          disabled={at === 0}
          data-testid="step-prev"
        >
          ◀ step
        </button>
        <span class="counter" data-testid="step-counter">
          {at} / {n}
        </span>
        <button
          type="button"
          onClick={() => setAt(Math.min(n, at + 1))}
          disabled={at === n}
          data-testid="step-next"
        >
          step ▶
        </button>
        <button type="button" onClick={() => setAt(n)} disabled={at === n}>
          last »
        </button>
        <span class="muted">placement: {trace.machine.placement}</span>
      </div>
      {trace.idleWaits.length > 0 && (
        <p class="muted" data-testid="idle-waits">
          not shown: {trace.idleWaits.join(', ')} — no instruction of the test is counted on them, so they
          never block
        </p>
      )}
      <ol class="steps" ref={steps}>
        {trace.steps.map((s, k) => (
          <li key={`${k}:${s.text}`} class={k + 1 === at ? 'current' : k + 1 < at ? 'done' : ''}>
            <button type="button" class="link" onClick={() => setAt(k + 1)}>
              <span class={`kind ${s.kind}`}>{s.kind}</span> {s.thread ? `${s.thread}: ` : ''}
              {s.text}
              {s.detail ? <span class="muted"> — {s.detail}</span> : null}
            </button>
          </li>
        ))}
      </ol>
      <MachinePicture trace={trace} at={at} />
    </div>
  );
}

export function HardwareCheck({
  text,
  client,
  targets,
  vulkan,
  deviceScope,
}: {
  text: string;
  client: EngineClient;
  targets: TargetInfo[];
  /** The test is a Vulkan test: it is checked through its AMDGPU translation. */
  vulkan: boolean;
  deviceScope: 'system' | 'agent';
}) {
  const runs = checkRuns(targets);
  const [results, setResults] = useState<Record<string, CheckResult | string>>({});
  const [selected, setSelected] = useState<TargetChoice | null>(null);
  const [trace, setTrace] = useState<TraceResult | null | 'loading'>(null);
  const key = (c: TargetChoice) => `${c.target}|${c.mode}|${c.tgsplit}`;

  useEffect(() => {
    let live = true;
    setResults({});
    setTrace(null);
    // After a pause in typing: every check queues in the worker.
    const timer = setTimeout(async () => {
      for (const c of runs) {
        const r = await client.request({ kind: 'check', text, choice: c, timeoutMs: 20_000, deviceScope });
        if (!live) return;
        const v = r.kind === 'check' ? r.result : r.kind === 'error' ? r.message : 'the test has errors';
        setResults((rs) => ({ ...rs, [key(c)]: v }));
      }
    }, 300);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [text, deviceScope]);

  const sel = selected ? results[key(selected)] : undefined;
  const showTrace = (c: TargetChoice, outcome: number) => {
    setTrace('loading');
    client
      .request({ kind: 'trace', choice: c, outcome })
      .then((r) => setTrace(r.kind === 'trace' ? r.result : null));
  };
  useEffect(() => {
    // An unsound check opens on the trace to its forbidden outcome.
    if (selected && typeof sel === 'object' && sel.verdict === 'UNSOUND') {
      const k = sel.machine.findIndex((m) => !m.allowed);
      if (k >= 0) showTrace(selected, k);
    } else setTrace(null);
  }, [selected && key(selected), typeof sel]);

  return (
    <div class="check">
      <p class="note">
        Each target's machine code (the documents' tables) run on the operational machine of its family, in
        every placement: <b>sound</b> when the model allows every outcome the machine reaches.
      </p>
      {vulkan && (
        <p class="note" data-testid="check-translation">
          This Vulkan test is checked through its AMDGPU translation (docs/model-vulkan.md, “Vulkan and
          AMDGPU”), as <code>gpumm lower</code> lowers it: the machines run the translation's code, and the
          model's outcomes are the AMDGPU model's on the translation.
        </p>
      )}
      <table class="verdicts" data-testid="check-verdicts">
        <thead>
          <tr>
            <th>target</th>
            <th>mode</th>
            <th>verdict</th>
            <th>machine outcomes</th>
            <th>machine states</th>
            <th>ms</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((c) => {
            const r = results[key(c)];
            return (
              <tr
                key={key(c)}
                class={`${selected && key(selected) === key(c) ? 'selected' : ''} clickable`}
                onClick={() => setSelected(c)}
              >
                <td>{c.target}</td>
                <td>{modeText(c, targets)}</td>
                <td class={typeof r === 'object' ? `v-${r.verdict}` : ''}>
                  {r === undefined ? (
                    <span class="muted">checking…</span>
                  ) : typeof r === 'string' ? (
                    r
                  ) : (
                    verdictText(r)
                  )}
                </td>
                <td class="num">{typeof r === 'object' ? r.machine.length : ''}</td>
                <td class="num">{typeof r === 'object' ? r.stats.states : ''}</td>
                <td class="num">{typeof r === 'object' ? r.stats.ms.toFixed(0) : ''}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {selected && typeof sel === 'object' && (
        <div class="check-detail" data-testid="check-detail">
          <h3>
            {sel.target} {sel.mode === 'tgsplit' ? 'TgSplit' : sel.mode.toUpperCase()}: {verdictText(sel)}
          </h3>
          {sel.reason && <p>{sel.reason}</p>}
          {sel.deadlock && <p class="note">Some run leaves a wave blocked at a barrier forever.</p>}
          <table class="states">
            <thead>
              <tr>
                <th>machine outcome</th>
                <th>model</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {sel.machine.map((m, k) => (
                <tr key={values(m.values)} class={m.allowed ? '' : 'forbidden'}>
                  <td>
                    <code>{values(m.values)}</code>
                  </td>
                  <td>
                    {m.allowed
                      ? m.undefMatched.length > 0
                        ? `allowed (the model's ${m.undefMatched.join(', ')} is undef)`
                        : 'allowed'
                      : 'FORBIDDEN by the model'}
                  </td>
                  <td>
                    <button type="button" onClick={() => showTrace(selected, k)} data-testid="trace-button">
                      step through
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {trace === 'loading' && <p class="muted">finding a shortest run…</p>}
      {trace && trace !== 'loading' && <TraceView trace={trace} />}
    </div>
  );
}
