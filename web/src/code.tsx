/**
 * Machine code: per thread, each IR instruction beside its lowered sequence on each chosen target —
 * several side by side, AMD and Intel, as `gpumm lower --target gfx942,pvc` prints them — with the
 * table rows it came from, and llc-22's sequence beside a single AMD target when the server has
 * llc-22. A Vulkan test is lowered as its AMDGPU translation, as `gpumm lower` does.
 */
import { useEffect, useState } from 'preact/hooks';
import type { EngineClient } from './client.ts';
import type { LoweredView, TargetInfo, TargetsChoice } from './engine/protocol.ts';
import { TranslationNote } from './results.tsx';

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

/** The targets grouped by vendor and generation, as `<option>`s; those in `skip` left out. */
function TargetOptions({
  targets,
  gens,
  skip = [],
}: {
  targets: TargetInfo[];
  gens: string[];
  skip?: readonly string[];
}) {
  return (
    <>
      {gens.map((g) => (
        <optgroup label={g} key={g}>
          {targets
            .filter((t) => `${t.vendor} ${t.generation}` === g && !skip.includes(t.name))
            .map((t) => (
              <option key={t.name} value={t.name}>
                {t.name}
              </option>
            ))}
        </optgroup>
      ))}
    </>
  );
}

/**
 * The targets to lower for, as chips (× removes one; one always stays) and a picker that adds
 * another, with the settings they share: wavefront mode, address-space rules, TgSplit.
 */
export function TargetPicker({
  targets,
  choice,
  onChange,
}: {
  targets: TargetInfo[];
  choice: TargetsChoice;
  onChange: (c: TargetsChoice) => void;
}) {
  const chosen = choice.targets.map((n) => targets.find((t) => t.name === n)).filter((t) => t !== undefined);
  const gens = [...new Set(targets.map((t) => `${t.vendor} ${t.generation}`))];
  const anyWgp = chosen.some((t) => t.wgpMode);
  const anyAmd = chosen.some((t) => t.vendor === 'AMD');
  return (
    <div class="toolbar targets">
      <span data-testid="target-chips" class="chips">
        {chosen.map((t) => (
          <span class="chip-target" key={t.name} data-testid={`chip-${t.name}`}>
            {t.name}
            {chosen.length > 1 && (
              <button
                type="button"
                class="link"
                title={`remove ${t.name}`}
                onClick={() => onChange({ ...choice, targets: choice.targets.filter((n) => n !== t.name) })}
                data-testid={`remove-${t.name}`}
              >
                ×
              </button>
            )}
          </span>
        ))}
      </span>
      <label title="the first target, or the only one">
        target{' '}
        <select
          value={choice.targets[0]}
          onChange={(e) =>
            onChange({
              ...choice,
              targets: [
                e.currentTarget.value,
                ...choice.targets.slice(1).filter((n) => n !== e.currentTarget.value),
              ],
            })
          }
          data-testid="target"
        >
          <TargetOptions targets={targets} gens={gens} />
        </select>
      </label>
      <label title="lower for several targets side by side, as gpumm lower --target a,b">
        side by side{' '}
        <select
          value=""
          onChange={(e) => {
            const v = e.currentTarget.value;
            if (v && !choice.targets.includes(v)) onChange({ ...choice, targets: [...choice.targets, v] });
          }}
          data-testid="add-target"
        >
          <option value="">+ add a target…</option>
          <TargetOptions targets={targets} gens={gens} skip={choice.targets} />
        </select>
      </label>
      <label title={anyWgp ? 'for the GFX10–GFX12 targets' : 'CU/WGP modes exist on GFX10 to GFX12'}>
        mode{' '}
        <select
          value={anyWgp ? choice.mode : 'cu'}
          disabled={!anyWgp}
          onChange={(e) => onChange({ ...choice, mode: e.currentTarget.value as 'cu' | 'wgp' })}
          data-testid="mode"
        >
          <option value="wgp">WGP</option>
          <option value="cu">CU</option>
        </select>
      </label>
      <label title={anyAmd ? 'for the AMD targets' : 'Intel Xe follows the OpenCL/SPIR-V built-ins'}>
        rules{' '}
        <select
          value={anyAmd ? choice.lang : 'opencl'}
          disabled={!anyAmd}
          onChange={(e) => onChange({ ...choice, lang: e.currentTarget.value as 'hsa' | 'opencl' })}
          data-testid="lang"
        >
          <option value="hsa">HSA</option>
          <option value="opencl">OpenCL</option>
        </select>
      </label>
      {chosen.some((t) => t.tgsplit) && (
        <label title="gfx90a, gfx942, gfx950">
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
  deviceScope,
}: {
  text: string;
  client: EngineClient;
  targets: TargetInfo[];
  choice: TargetsChoice;
  onChoice: (c: TargetsChoice) => void;
  llc: LlcStatus | null;
  deviceScope: 'system' | 'agent';
}) {
  const [view, setView] = useState<LoweredView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [llcRows, setLlcRows] = useState<LlcRow[] | null>(null);
  const [llcError, setLlcError] = useState<string | null>(null);
  const [showRows, setShowRows] = useState(true);
  const single = choice.targets.length === 1 ? targets.find((t) => t.name === choice.targets[0]) : undefined;
  const key = JSON.stringify([text, choice, deviceScope]);

  useEffect(() => {
    let live = true;
    client.request({ kind: 'lower', text, choice, deviceScope }).then((r) => {
      if (!live) return;
      if (r.kind === 'lower') {
        setView(r.view);
        setError(null);
      } else {
        setView(null);
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
    if (llc?.available && single?.llc) {
      fetch('api/llc', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          text,
          target: single.name,
          mode: choice.mode,
          lang: choice.lang,
          tgsplit: choice.tgsplit && single.tgsplit,
          deviceScope,
        }),
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
  const showLlc = llc?.available === true && single?.llc === true;
  const columns = view?.columns ?? [];
  return (
    <div class="code">
      <TargetPicker targets={targets} choice={choice} onChange={onChoice} />
      <p class="note">
        {choice.targets.length > 1
          ? 'Each IR instruction and its code on each target, side by side (gpumm lower --target a,b). '
          : ''}
        {llc === null
          ? ''
          : !llc.available
            ? `No llc-22 column: ${llc.reason}.`
            : choice.targets.length > 1
              ? 'llc-22 is compared with one AMD target at a time: choose one target for its column.'
              : single?.llc
                ? `llc-22 (${llc.version}) beside gpumm's sequence; differences are marked.`
                : `llc-22 does not accept ${choice.targets[0]}${single?.vendor === 'Intel' ? ' (it has no Intel Xe backend)' : ''}.`}
        {llcError && <span class="error"> llc-22: {llcError}</span>}{' '}
        <label>
          <input
            type="checkbox"
            checked={showRows}
            onChange={() => setShowRows(!showRows)}
            data-testid="show-rows"
          />{' '}
          table rows
        </label>
      </p>
      {view?.translation && <TranslationNote t={view.translation} what="is lowered" />}
      {error && <p class="error">{error}</p>}
      {view?.threads.map((t) => (
        <table class="lowered" key={t.thread} data-testid={`lowered-${t.thread}`}>
          <colgroup>
            <col class="ir" />
            {columns.map((c) => (
              <col key={c.target} />
            ))}
            {showLlc && <col />}
          </colgroup>
          <thead>
            <tr>
              <th colSpan={1 + columns.length + (showLlc ? 1 : 0)}>{t.thread}</th>
            </tr>
            <tr>
              <th>IR</th>
              {columns.map((c) => (
                <th key={c.target} title={c.title} data-testid="target-column">
                  {c.title}
                </th>
              ))}
              {showLlc && <th>llc-22</th>}
            </tr>
          </thead>
          <tbody>
            {t.instrs.map((i, k) => {
              const l = llcFor(t.thread, k);
              return (
                <tr key={`${i.line}:${k}`}>
                  <td class="ir">
                    <span class="lineno">{i.line}</span> <code>{i.ir}</code>
                  </td>
                  {i.cells.map((cell, ci) => (
                    <td
                      class="asm"
                      data-testid="asm"
                      data-target={columns[ci]?.target}
                      key={columns[ci]?.target}
                    >
                      {cell.asm.map((a, n) => (
                        <div key={`${n}:${a}`} class={a.startsWith('(') ? 'muted' : ''}>
                          {a}
                        </div>
                      ))}
                      {cell.warnings.map((w) => (
                        <div key={w} class="warning" data-testid="lower-warning">
                          {w}
                        </div>
                      ))}
                      {showRows && (
                        <div class="rows">
                          {cell.diagnostic ? (
                            <div class="error">{cell.diagnostic}</div>
                          ) : (
                            cell.rows.map((r) => <div key={r}>{r}</div>)
                          )}
                        </div>
                      )}
                    </td>
                  ))}
                  {showLlc && (
                    <td class={`asm llc ${l && l.llc !== null && !l.same ? 'differs' : ''}`}>
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
