import { useState, type FormEvent } from 'react';
import { api } from '../../api/client';
import type { Label } from '../../api/types';
import { ErrorNote, StatusNote } from '../../components/ErrorNote';
import { ShowFilter } from '../../components/ShowFilter';
import { TableHead } from '../../components/TableHead';
import { useListing } from '../../components/use-listing';
import { LABEL_TYPES, labelBody, labelsPath } from './labels-view';
import { TableScroll } from '../../components/TableScroll';

// The swatch is an SVG fill, not a style attribute: the console's CSP allows no inline styles.
/** The organization's labels (GET /v1/labels), by type; a new one (POST /v1/labels/create). */
export function LabelsPage() {
  const [type, setType] = useState('');
  const {
    items: labels,
    error,
    note,
    act,
  } = useListing<Label, { labels: Label[] }>(labelsPath(type), (a: { labels: Label[] }) => a.labels);
  const create = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    return act(async () => {
      const label = await api<Label>('POST', '/labels/create', {
        body: labelBody({
          name: String(data.get('name') ?? ''),
          color: String(data.get('color') ?? '#9e9e9e'),
          type: String(data.get('type') ?? ''),
        }),
      });
      form.reset();
      return `Label "${label.name}" (${label.type}) is ready.`;
    });
  };
  return (
    <>
      <form className="row" onSubmit={(e) => void create(e)} aria-label="New label">
        <label>
          Name
          <input name="name" required maxLength={100} placeholder="vip" />
        </label>
        <label>
          Colour
          <input name="color" type="color" defaultValue="#1e88e5" />
        </label>
        <label>
          Used on
          <select name="type" defaultValue="chat">
            {LABEL_TYPES.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </label>
        <button type="submit">Create label</button>
      </form>
      <ErrorNote error={error} />
      <StatusNote note={note} />
      <ShowFilter
        value={type}
        onChange={setType}
        every="every type"
        options={LABEL_TYPES.map((t) => ({ value: t, text: `${t} labels` }))}
      />
      {labels === null && !error && <p role="status">Loading labels…</p>}
      {labels?.length === 0 && <p>No labels yet.</p>}
      {labels && labels.length > 0 && (
        <TableScroll label="Labels (scrolls sideways)">
          <table className="table">
            <caption>Labels</caption>
            <TableHead columns={['Name', 'Used on', 'Colour', 'Created']} />
            <tbody>
              {labels.map((l) => (
                <tr key={l.label_id} data-label-id={l.label_id}>
                  <td>
                    <svg className="swatch" width="12" height="12" aria-hidden="true">
                      <rect width="12" height="12" rx="2" fill={l.color} />
                    </svg>{' '}
                    {l.name}
                  </td>
                  <td>{l.type}</td>
                  <td>
                    <code>{l.color}</code>
                  </td>
                  <td>{new Date(l.created_at).toLocaleString()}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </>
  );
}
