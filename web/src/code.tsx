/**
 * Machine code: per thread, each IR instruction beside its lowered sequence for the chosen target
 * and mode with the table rows it came from, and llc-22's sequence when the server has llc-22.
 */
import { useEffect, useState } from 'preact/hooks';
import type { EngineClient } from './client.ts';
import type { LoweredThreadView, TargetChoice, TargetInfo } from './engine/protocol.ts';

/** One instruction of the server's llc-22 comparison (src/lower/llc.ts, `LlcComparison`). */
export interface LlcRow {
  thread: string;
  ir: string;
  doc: string[];
  llc: string[] | null;
  note: string | null;
  same: boolean;
  causes: { id: string; what: string }[];
}

export type LlcStatus = { available: true; version: string } | { available: false; reason: string };

export function TargetPicker({
  targets,
  choice,
  onChange,
}: {
  targets: TargetInfo[];
  choice: TargetChoice;
  onChange: (c: TargetChoice) => void;
}) {
  const info = targets.find((t) => t.name === choice.target);
  const gens = [...new Set(targets.map((t) => t.generation))];
  return (
    <div class="toolbar">
      <label>
        target{' '}
        <select
          value={choice.target}
          onChange={(e) => onChange({ ...choice, target: e.currentTarget.value })}
          data-testid="target"
        >
          {gens.map((g) => (
            <optgroup label={g} key={g}>
              {targets
                .filter((t) => t.generation === g)
                .map((t) => (
                  <option key={t.name} value={t.name}>
                    {t.name}
                  </option>
                ))}
            </optgroup>
          ))}
        </select>
      </label>
      <label title={info?.wgpMode ? '' : 'CU/WGP modes exist on GFX10 to GFX12'}>
        mode{' '}
        <select
          value={info?.wgpMode ? choice.mode : 'cu'}
          disabled={!info?.wgpMode}
          onChange={(e) => onChange({ ...choice, mode: e.currentTarget.value as 'cu' | 'wgp' })}
          data-testid="mode"
        >
          <option value="wgp">WGP</option>
          <option value="cu">CU</option>
        </select>
      </label>
      <label>
        rules{' '}
        <select
          value={choice.lang}
          onChange={(e) => onChange({ ...choice, lang: e.currentTarget.value as 'hsa' | 'opencl' })}
          data-testid="lang"
        >
          <option value="hsa">HSA</option>
          <option value="opencl">OpenCL</option>
        </select>
      </label>
      {info?.tgsplit && (
        <label>
          <input
            type="checkbox"
            checked={choice.tgsplit}
            onChange={() => onChange({ ...choice, tgsplit: !choice.tgsplit })}
          />{' '}
          TgSplit
        </label>
      )}
    </div>
  );
}

export function MachineCode({
  text,
  client,
  targets,
  choice,
  onChoice,
  llc,
}: {
  text: string;
  client: EngineClient;
  targets: TargetInfo[];
  choice: TargetChoice;
  onChoice: (c: TargetChoice) => void;
  llc: LlcStatus | null;
}) {
  const [threads, setThreads] = useState<LoweredThreadView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [llcRows, setLlcRows] = useState<LlcRow[] | null>(null);
  const [llcError, setLlcError] = useState<string | null>(null);
  const info = targets.find((t) => t.name === choice.target);
  const key = JSON.stringify([text, choice]);

  useEffect(() => {
    let live = true;
    client.request({ kind: 'lower', text, choice }).then((r) => {
      if (!live) return;
      if (r.kind === 'lower') {
        setThreads(r.threads);
        setError(null);
      } else {
        setThreads(null);
        setError(
          r.kind === 'diagnostics'
            ? 'the test has errors (see the editor)'
            : r.kind === 'error'
              ? r.message
              : '',
        );
      }
    });
    setLlcRows(null);
    setLlcError(null);
    if (llc?.available && info?.llc) {
      fetch('api/llc', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text, ...choice }),
      })
        .then(async (res) => {
          const body = await res.json();
          if (!live) return;
          if (res.ok) setLlcRows(body.rows as LlcRow[]);
          else setLlcError(body.error ?? `HTTP ${res.status}`);
        })
        .catch((e: unknown) => live && setLlcError(String(e)));
    }
    return () => {
      live = false;
    };
  }, [key, llc?.available]);

  const llcFor = (thread: string, k: number) => llcRows?.filter((r) => r.thread === thread)[k];
  const showLlc = llc?.available && info?.llc;
  return (
    <div class="code">
      <TargetPicker targets={targets} choice={choice} onChange={onChoice} />
      <p class="note">
        {llc === null
          ? ''
          : llc.available
            ? info?.llc
              ? `llc-22 (${llc.version}) beside gpumm's sequence; differences are marked.`
              : `llc-22 does not accept ${choice.target}.`
            : `No llc-22 column: ${llc.reason}.`}
        {llcError && <span class="error"> llc-22: {llcError}</span>}
      </p>
      {error && <p class="error">{error}</p>}
      {threads?.map((t) => (
        <table class="lowered" key={t.thread} data-testid={`lowered-${t.thread}`}>
          <thead>
            <tr>
              <th colSpan={showLlc ? 4 : 3}>{t.thread}</th>
            </tr>
            <tr>
              <th>IR</th>
              <th>
                {choice.target} {info?.wgpMode ? choice.mode.toUpperCase() : ''}
              </th>
              <th>table rows</th>
              {showLlc && <th>llc-22</th>}
            </tr>
          </thead>
          <tbody>
            {t.instrs.map((i, k) => {
              const l = llcFor(t.thread, k);
              return (
                <tr key={`${i.line}:${k}`}>
                  <td>
                    <span class="lineno">{i.line}</span> <code>{i.ir}</code>
                  </td>
                  <td class="asm" data-testid="asm">
                    {i.diagnostic ? (
                      <span class="error">{i.diagnostic}</span>
                    ) : i.asm.length === 0 ? (
                      <span class="muted">(nothing)</span>
                    ) : (
                      i.asm.map((a) => <div key={a}>{a}</div>)
                    )}
                  </td>
                  <td class="rows">
                    {i.rows.map((r) => (
                      <div key={r}>{r}</div>
                    ))}
                  </td>
                  {showLlc && (
                    <td class={`asm ${l && l.llc !== null && !l.same ? 'differs' : ''}`}>
                      {!l ? (
                        <span class="muted">…</span>
                      ) : l.llc === null ? (
                        <span class="muted">{l.note ?? ''}</span>
                      ) : l.llc.length === 0 ? (
                        <span class="muted">(nothing)</span>
                      ) : (
                        l.llc.map((a, n) => <div key={`${n}:${a}`}>{a}</div>)
                      )}
                      {l?.causes.map((c) => (
                        <div class="why" key={c.id}>
                          why ({c.id}): {c.what}
                        </div>
                      ))}
                    </td>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      ))}
    </div>
  );
}
