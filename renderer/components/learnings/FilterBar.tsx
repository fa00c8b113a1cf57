import { IMPACTS, LEARNING_STATES } from '../../../shared/domain.js';
import { count } from '../../lib/format.js';
import { FilterSelect } from '../FilterSelect.js';
import { useDebouncedSearch } from '../useDebouncedSearch.js';
import { useSlice, useStores } from '../../state/context.js';

export const SEARCH_ID = 'learning-search';

/** State chips with counts, agent, impact and text search: all applied by the ledger, not here. */
export function FilterBar() {
  const { learnings } = useStores();
  const filter = useSlice(learnings, (s) => s.filter);
  const counts = useSlice(learnings, (s) => s.counts);
  const agents = useSlice(learnings, (s) => s.agents);
  const [text, onSearch] = useDebouncedSearch(filter.search ?? '', (value) => {
    if ((learnings.getState().filter.search ?? '') !== value.trim()) learnings.getState().setFilter({ search: value });
  });

  const states = filter.states ?? [];
  const impacts = filter.impacts ?? [];
  const allAgents = filter.agent && !agents.includes(filter.agent) ? [filter.agent, ...agents] : agents;

  return (
    <div className="filterbar" role="search" aria-label="Filter learnings">
      <div className="chips" role="group" aria-label="State">
        {LEARNING_STATES.map((state) => (
          <button
            key={state}
            type="button"
            className={`chip state-${state}`}
            aria-pressed={states.includes(state)}
            onClick={() => learnings.getState().toggleState(state)}
          >
            {state} <span className="chip-count">{count(counts[state])}</span>
          </button>
        ))}
      </div>
      <div className="chips" role="group" aria-label="Impact">
        {IMPACTS.map((impact) => (
          <button
            key={impact}
            type="button"
            className="chip"
            aria-pressed={impacts.includes(impact)}
            onClick={() => learnings.getState().toggleImpact(impact)}
          >
            {impact}
          </button>
        ))}
      </div>
      <FilterSelect
        label="Agent"
        value={filter.agent ?? ''}
        all="all agents"
        choices={allAgents}
        onChange={(agent) => learnings.getState().setFilter({ agent: agent || undefined })}
      />
      <label className="inline-label search-label" htmlFor={SEARCH_ID}>
        Search
      </label>
      <input
        id={SEARCH_ID}
        type="search"
        placeholder="Search text  ( / )"
        value={text}
        onChange={(e) => onSearch(e.target.value)}
        autoComplete="off"
      />
    </div>
  );
}
