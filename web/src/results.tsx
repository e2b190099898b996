/** The verdict of a run: summary, the allowed final states as a table, and the outcome histogram. */
import { expectationText } from '../../src/enumerate/expectations.ts';
import type { Category, RunResult, Translation } from './engine/protocol.ts';

export const CATEGORY_WORDS: Record<Category, string> = {
  allowed: 'allowed',
  racy: 'racy',
  undef: 'undef-dependent',
  forbidden: 'forbidden',
};

export const CATEGORY_HELP: Record<Category, string> = {
  allowed: 'some consistent execution reaches it, without a race or an undef value',
  racy: 'reached only with a data race',
  undef: 'reached with an undef value: what the hardware returns there is not fixed',
  forbidden: 'only candidates the model rejects reach it',
};

/** The translation note of a Vulkan test's code or check: what was translated, and how to see it. */
export function TranslationNote({ t, what }: { t: Translation; what: string }) {
  return (
    <details class="translation" data-testid="translation">
      <summary>
        This {t.from} test {what} through its {t.to} translation (docs/model-vulkan.md, “Vulkan and AMDGPU”),
        as the command line does.
      </summary>
      <pre>{t.text}</pre>
      {t.notes.length > 0 && (
        <ul>
          {t.notes.map((d) => (
            <li key={`${d.line}:${d.col}:${d.code}`}>
              {d.line}:{d.col} <span class="code">{d.code}</span> {d.message}
            </li>
          ))}
        </ul>
      )}
    </details>
  );
}

function Verdict({ r }: { r: RunResult }) {
  const rep = r.report;
  const cond = rep.condition;
  // A stopped run keeps what its states prove (docs/model.md choice 30), as `gpumm run` says it.
  const proved = !rep.complete && cond !== null && rep.decided?.condition === true;
  const verdictClass =
    !rep.complete && !proved
      ? 'warn'
      : cond?.verdict === 'holds'
        ? 'ok'
        : cond?.verdict === 'fails'
          ? 'no'
          : 'warn';
  const stopped = `undecided (${rep.stop})`;
  return (
    <div class="summary">
      <div class={`verdict ${verdictClass}`} data-testid="verdict">
        {cond ? (
          <>
            <code>{cond.text}</code>{' '}
            <b>
              {rep.complete
                ? cond.verdict
                : proved
                  ? `${cond.verdict} (proved before the run stopped: ${rep.stop})`
                  : stopped}
            </b>
          </>
        ) : (
          <b>{rep.complete ? 'done' : stopped}</b>
        )}
      </div>
      <div class="facts">
        <span>
          model <b>{r.model}</b>
        </span>
        <span>
          {rep.states.length} final state{rep.states.length === 1 ? '' : 's'}
        </span>
        <span>{rep.stats.consistent} consistent executions</span>
        <span>{rep.stats.explored} candidates explored</span>
        <span>{rep.stats.ms.toFixed(1)} ms</span>
        {rep.flags.race && <span class="flag racy">data race</span>}
        {rep.flags.undef && <span class="flag undef">undef read</span>}
        {rep.flags.ub && <span class="flag no">undefined behaviour</span>}
      </div>
      {rep.expectations.length > 0 && (
        <ul class="expect">
          {rep.expectations.map((e) => (
            <li key={e.key} class={e.ok ? 'ok' : (e.decided ?? rep.complete) ? 'no' : 'undecided'}>
              expect {e.key} {e.expected}: {expectationText(e, rep.complete)}
            </li>
          ))}
        </ul>
      )}
      {(rep.ubReasons ?? []).map((u) => (
        <div class="flag no" key={u}>
          undefined behaviour: {u}
        </div>
      ))}
    </div>
  );
}

function StatesTable({ r }: { r: RunResult }) {
  const rep = r.report;
  return (
    <table class="states" data-testid="states">
      <thead>
        <tr>
          {rep.observables.map((o) => (
            <th key={o}>{o}</th>
          ))}
          <th>executions</th>
          <th>condition</th>
          <th>flags</th>
        </tr>
      </thead>
      <tbody>
        {rep.states.length === 0 && (
          <tr>
            <td colSpan={rep.observables.length + 3} class="muted">
              {rep.complete
                ? 'none: the model allows no execution of this test'
                : `none found before the run stopped (${rep.stop})`}
            </td>
          </tr>
        )}
        {rep.states.map((s) => (
          <tr key={JSON.stringify(s.values)} class={s.condition === 'true' ? 'selected' : ''}>
            {rep.observables.map((o) => (
              <td key={o} class={s.values[o] === 'undef' ? 'undef' : ''}>
                {String(s.values[o])}
              </td>
            ))}
            <td class="num">{s.count}</td>
            <td>{s.condition}</td>
            <td>
              {[s.race && 'race', s.undef && 'undef read', s.undefFinal && 'undef final']
                .filter(Boolean)
                .join(', ')}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Histogram({ r }: { r: RunResult }) {
  const max = Math.max(1, ...r.histogram.map((b) => b.count));
  return (
    <div class="histogram" data-testid="histogram">
      <div class="legend">
        {(Object.keys(CATEGORY_WORDS) as Category[]).map((c) => (
          <span key={c} class={`chip ${c}`} title={CATEGORY_HELP[c]}>
            {CATEGORY_WORDS[c]}
          </span>
        ))}
        <span class="chip cond">condition true</span>
      </div>
      {r.histogram.map((b) => (
        <div class="bar-row" key={b.state} title={CATEGORY_HELP[b.category]}>
          <code class={`state ${b.condition === 'true' ? 'cond' : ''}`}>{b.state || '(no observables)'}</code>
          <div class="bar-track">
            <div class={`bar ${b.category}`} style={{ width: `${Math.max(2, (100 * b.count) / max)}%` }} />
          </div>
          <span class="num">
            {b.count} <span class="cat">{CATEGORY_WORDS[b.category]}</span>
          </span>
        </div>
      ))}
      {r.candidatesPartial && (
        <p class="note">
          Forbidden outcomes come from the first {r.candidates.length} candidates: the list stopped at its cap
          or time limit.
        </p>
      )}
    </div>
  );
}

export function Results({ r }: { r: RunResult }) {
  return (
    <div class="results">
      <Verdict r={r} />
      {r.translation && <TranslationNote t={r.translation} what={`runs under the ${r.model} model`} />}
      <h3>Final states</h3>
      <StatesTable r={r} />
      <h3>Outcomes</h3>
      <Histogram r={r} />
    </div>
  );
}
