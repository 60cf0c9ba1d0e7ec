/** A listing's "Show" filter: every item (value "") or those of one of the options. */
export function ShowFilter(props: {
  value: string;
  onChange: (value: string) => void;
  every: string;
  options: readonly { value: string; text: string }[];
}) {
  return (
    <div className="row">
      <label>
        Show
        <select value={props.value} onChange={(e) => props.onChange(e.currentTarget.value)}>
          <option value="">{props.every}</option>
          {props.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.text}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
