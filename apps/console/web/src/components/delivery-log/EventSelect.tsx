import { EVENT_NAMES } from '../../api/event-names';

/** The event a webhook subscription or an event sink delivers (several at once with `multiple`: one subscription each). */
export function EventSelect({
  label = 'Event',
  name = 'event',
  defaultValue,
  multiple = false,
}: {
  label?: string;
  name?: string;
  defaultValue: string | string[];
  multiple?: boolean;
}) {
  return (
    <label>
      {label}
      <select name={name} multiple={multiple} size={multiple ? 4 : undefined} defaultValue={defaultValue}>
        {EVENT_NAMES.map((n) => (
          <option key={n}>{n}</option>
        ))}
      </select>
    </label>
  );
}
