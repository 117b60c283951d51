/** The Traces page's filter bar: tool, outcome, time range, call id; pause and export. */
import type { TraceFilterState, TimeRangeId } from './trace-filter';
import { TIME_RANGES, sinceFor } from './trace-filter';

export interface TraceFiltersProps {
  filter: TraceFilterState;
  toolIds: string[];
  onChange(next: TraceFilterState): void;
}

export function TraceFilters(props: TraceFiltersProps): React.JSX.Element {
  const { filter, onChange } = props;
  return (
    <div className="filter-bar" role="group" aria-label="Filter spans">
      <label>
        Tool
        <select value={filter.toolId} onChange={(e) => onChange({ ...filter, toolId: e.target.value })}>
          <option value="">All tools</option>
          {props.toolIds.map((id) => (
            <option key={id} value={id}>
              {id}
            </option>
          ))}
        </select>
      </label>
      <label>
        Outcome
        <select
          value={filter.outcome}
          onChange={(e) => onChange({ ...filter, outcome: e.target.value as TraceFilterState['outcome'] })}
        >
          <option value="">Any outcome</option>
          <option value="success">success</option>
          <option value="error">error</option>
          <option value="cancelled">cancelled</option>
        </select>
      </label>
      <label>
        Time range
        <select
          value={filter.range}
          onChange={(e) => {
            const range = e.target.value as TimeRangeId;
            onChange({ ...filter, range, since: sinceFor(range, Date.now()) });
          }}
        >
          {TIME_RANGES.map((r) => (
            <option key={r.id} value={r.id}>
              {r.label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Call id
        <input
          type="search"
          placeholder="any part of a call id"
          value={filter.callSearch}
          onChange={(e) => onChange({ ...filter, callSearch: e.target.value })}
        />
      </label>
    </div>
  );
}
