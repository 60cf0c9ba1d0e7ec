import { useEffect, useState, type FormEvent } from 'react';
import { api } from '../../api/client';
import { digits, type Label, type Phone } from '../../api/types';
import { phoneLabel } from '../../components/PhonePicker';
import type { ChatFilters } from './chats-view';

/**
 * The chat list's filters and search. Each change calls `change` with the new filters (the page keeps
 * them in the address); the search applies on Enter or its button.
 */
export function ChatFilterBar({
  filters,
  labels,
  change,
}: {
  filters: ChatFilters;
  labels: ReadonlyMap<string, Label>;
  change: (next: ChatFilters) => void;
}) {
  const [phones, setPhones] = useState<Phone[]>([]);
  const [q, setQ] = useState(filters.q);
  useEffect(() => setQ(filters.q), [filters.q]);
  useEffect(() => {
    api<Phone[]>('GET', '/phones/all').then(setPhones, () => setPhones([]));
  }, []);
  const search = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    change({ ...filters, q: q.trim().slice(0, 100) });
  };
  const set = <K extends keyof ChatFilters>(key: K, value: ChatFilters[K]) => change({ ...filters, [key]: value });
  return (
    <div className="chat-filters">
      <form role="search" className="chat-search" onSubmit={search}>
        <label className="grow">
          Search
          <input
            id="chat-search"
            type="search"
            name="q"
            aria-keyshortcuts="/"
            value={q}
            maxLength={100}
            placeholder="Name, number or message"
            onChange={(e) => setQ(e.currentTarget.value)}
          />
        </label>
        <button type="submit" className="secondary">
          Search
        </button>
      </form>
      <div className="chat-filter-row">
        <label>
          Assigned
          <select
            name="assigned"
            value={filters.assigned}
            onChange={(e) => set('assigned', e.currentTarget.value as ChatFilters['assigned'])}
          >
            <option value="">Anyone</option>
            <option value="mine">Mine</option>
            <option value="none">Unassigned</option>
          </select>
        </label>
        <label>
          Label
          <select name="label" value={filters.label} onChange={(e) => set('label', e.currentTarget.value)}>
            <option value="">Any label</option>
            {[...labels.values()].map((l) => (
              <option key={l.label_id} value={l.label_id}>
                {l.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Phone
          <select name="on_phone" value={filters.phone} onChange={(e) => set('phone', e.currentTarget.value)}>
            <option value="">Every phone</option>
            {phones
              .filter((p) => p.org_phone)
              .map((p) => (
                <option key={p.phone_id} value={digits(p.org_phone)}>
                  {phoneLabel(p)}
                </option>
              ))}
          </select>
        </label>
      </div>
      <div className="chat-filter-row">
        <label className="check">
          <input type="checkbox" name="unread" checked={filters.unread} onChange={(e) => set('unread', e.currentTarget.checked)} /> Unread
        </label>
        <label className="check">
          <input type="checkbox" name="flagged" checked={filters.flagged} onChange={(e) => set('flagged', e.currentTarget.checked)} />{' '}
          Flagged
        </label>
        <label className="check">
          <input type="checkbox" name="ticket" checked={filters.ticket} onChange={(e) => set('ticket', e.currentTarget.checked)} /> Open
          ticket
        </label>
      </div>
    </div>
  );
}
