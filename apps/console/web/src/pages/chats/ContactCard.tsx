import { useState, type FormEvent } from 'react';
import { api, errorText } from '../../api/client';
import type { ChatDetail, Label } from '../../api/types';
import { digits } from '../../api/types';
import { ErrorNote, StatusNote } from '../../components/ErrorNote';
import { contactPatch } from './side-panel-view';
import type { Contact } from './use-side-panel';

/**
 * The contact of a one-to-one chat: name, number and labels, and a form to change the name and the
 * labels (PATCH /v1/contacts/{contact_id} with the chat's phone, only what changed). The route holds
 * the member's reach as on the API: a contact outside it is refused (404), nothing changes. `changed`
 * gets the contact the API answers.
 */
export function ContactCard(props: {
  contact: Contact | null;
  chat: ChatDetail;
  phone: string;
  labels: ReadonlyMap<string, Label>;
  changed: (contact: Contact) => void;
}) {
  const { contact, chat } = props;
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  if (!contact) {
    return (
      <section className="panel-card" aria-labelledby="panel-contact">
        <h3 id="panel-contact">Contact</h3>
        <p className="muted">
          {chat.chat_type === 'group' ? `A group: ${chat.chat_name ?? chat.name ?? chat.chat_id}` : 'No contact details.'}
        </p>
      </section>
    );
  }
  const number = contact.number ?? digits(contact.contact_id);
  const save = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const patch = contactPatch(contact, { name: String(data.get('contact_name') ?? ''), labels: String(data.get('contact_labels') ?? '') });
    setError(null);
    setNote(null);
    if (!patch) return setNote('Nothing to change.');
    if ('error' in patch) return setError(patch.error);
    try {
      const saved = await api<Contact>('PATCH', `/contacts/${encodeURIComponent(contact.contact_id)}`, {
        body: patch.body,
        phone: props.phone,
      });
      props.changed(saved);
      setNote('Contact saved.');
    } catch (err) {
      setError(`The contact did not change: ${errorText(err)}`);
    }
  };
  const listId = `contact-labels-of-${contact.contact_id}`;
  const key = `${contact.contact_name ?? ''}/${contact.labels.join(',')}`;
  return (
    <section className="panel-card" aria-labelledby="panel-contact">
      <h3 id="panel-contact">Contact</h3>
      <dl className="panel-contact">
        <dt>Name</dt>
        <dd data-testid="contact-name">{contact.contact_name ?? chat.contact_name ?? '—'}</dd>
        <dt>Number</dt>
        <dd data-testid="contact-number">+{number}</dd>
        <dt>Labels</dt>
        <dd data-testid="contact-labels">{contact.labels.length ? contact.labels.join(', ') : 'none'}</dd>
      </dl>
      <details>
        <summary>Edit contact</summary>
        <form key={key} className="panel-form" onSubmit={(e) => void save(e)} aria-label="Edit contact">
          <label>
            Contact name
            <input name="contact_name" defaultValue={contact.contact_name ?? ''} maxLength={200} autoComplete="off" />
          </label>
          <label>
            Contact labels
            <input
              name="contact_labels"
              defaultValue={contact.labels.join(', ')}
              placeholder="comma-separated"
              list={listId}
              autoComplete="off"
            />
          </label>
          <datalist id={listId}>
            {[...props.labels.values()]
              .filter((l) => l.type === 'contact' && !contact.labels.includes(l.name.toLowerCase()))
              .map((l) => (
                <option key={l.label_id} value={[...contact.labels, l.name.toLowerCase()].join(', ')} />
              ))}
          </datalist>
          <button type="submit">Save contact</button>
        </form>
      </details>
      <ErrorNote error={error} />
      <StatusNote note={note} />
    </section>
  );
}
