import { TICKET_STATUSES } from '../../api/types';
import { PRIORITIES, STATUS_TEXT } from './ticket-view';

/** A ticket's status as a labelled select (`name="status"`), for the ticket page and the chat's side panel. */
export function StatusSelect({ value }: { value: string | null }) {
  return (
    <label>
      Status
      <select name="status" defaultValue={value ?? 'open'}>
        {TICKET_STATUSES.map((s) => (
          <option key={s} value={s}>
            {STATUS_TEXT[s]}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A ticket's priority as a labelled select (`name="priority"`). */
export function PrioritySelect({ value }: { value: number | null }) {
  return (
    <label>
      Priority
      <select name="priority" defaultValue={String(value ?? 1)}>
        {PRIORITIES.map(([n, text]) => (
          <option key={n} value={n}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}
