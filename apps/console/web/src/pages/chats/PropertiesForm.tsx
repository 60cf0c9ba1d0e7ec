import type { FormEvent } from 'react';
import { optionsOf, propertyChanges, type CustomPropertyDef } from './side-panel-view';

function PropertyInput({ def, value }: { def: CustomPropertyDef; value: string }) {
  const name = def.property_id;
  if (def.property_value_type === 'dropdown' || def.property_value_type === 'boolean') {
    const options = def.property_value_type === 'boolean' ? ['true', 'false'] : optionsOf(def);
    return (
      <select name={name} defaultValue={value}>
        <option value="">—</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    );
  }
  const type = def.property_value_type === 'number' ? 'number' : def.property_value_type === 'date' ? 'date' : 'text';
  return <input name={name} type={type} defaultValue={type === 'date' ? value.slice(0, 10) : value} />;
}

/**
 * A chat's or a ticket's custom properties, each input by its type (text, number, date; dropdown and
 * boolean as selects); `save` gets only the values changed, by property id (emptied: null).
 */
export function PropertiesForm(props: {
  name: string;
  values: { def: CustomPropertyDef; value: string }[];
  save: (custom: Record<string, string | null>) => Promise<void> | void;
}) {
  const { values } = props;
  if (values.length === 0) return null;
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const after = Object.fromEntries(values.map(({ def }) => [def.property_id, String(data.get(def.property_id) ?? '')]));
    const custom = propertyChanges(values, after);
    if (custom) void props.save(custom);
  };
  return (
    <form key={values.map((v) => v.value).join('\u0000')} className="panel-form" onSubmit={submit} aria-label={props.name}>
      {values.map(({ def, value }) => (
        <label key={def.property_id} data-property={def.property_name}>
          {def.property_name}
          {def.is_required ? ' *' : ''}
          <PropertyInput def={def} value={value} />
        </label>
      ))}
      <button type="submit">Save properties</button>
    </form>
  );
}
