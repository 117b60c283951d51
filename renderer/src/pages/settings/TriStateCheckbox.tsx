/**
 * A checkbox with a third, "default" state (shown as the native indeterminate dash, announced as
 * "mixed"). Each activation, by click or Space, moves default → on → off → default. The native
 * input keeps keyboard handling and the label association that a custom widget would have to redo.
 */
import { useEffect, useRef } from 'react';
import type { TriState } from './settings-draft';

const NEXT: Record<TriState, TriState> = { default: 'on', on: 'off', off: 'default' };

export function asTriState(value: string): TriState {
  return value === 'on' || value === 'off' ? value : 'default';
}

export function TriStateCheckbox(props: {
  id: string;
  value: TriState;
  describedBy?: string;
  invalid?: boolean;
  onChange(value: TriState): void;
}): React.JSX.Element {
  const input = useRef<HTMLInputElement>(null);
  const stateId = `${props.id}-state`;
  // `indeterminate` has no HTML attribute; it can only be set on the element.
  useEffect(() => {
    if (input.current) input.current.indeterminate = props.value === 'default';
  }, [props.value]);
  return (
    <span className="tri-state">
      <input
        ref={input}
        id={props.id}
        type="checkbox"
        checked={props.value === 'on'}
        aria-describedby={[stateId, props.describedBy].filter(Boolean).join(' ')}
        aria-invalid={props.invalid ? true : undefined}
        onChange={() => props.onChange(NEXT[props.value])}
      />
      <span id={stateId} className={`tri-state-text state-${props.value}`} data-testid={`${props.id}-tri-state`}>
        {props.value}
      </span>
    </span>
  );
}
