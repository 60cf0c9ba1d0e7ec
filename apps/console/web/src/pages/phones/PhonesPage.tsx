import { useState, type FormEvent } from 'react';
import { api, errorText } from '../../api/client';
import type { Phone } from '../../api/types';
import { isAdmin, useSession } from '../../app/session';
import { ErrorNote } from '../../components/ErrorNote';
import { PhoneCard } from './PhoneCard';
import { usePhones } from './use-phones';

/** The phones page: every phone the member reaches, live; owners and admins add phones. */
export function PhonesPage() {
  const { me } = useSession();
  const { phones, error, connected, remove, put } = usePhones();
  const [createError, setCreateError] = useState<string | null>(null);
  const create = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const name = String(new FormData(form).get('phone_name') ?? '').trim();
    setCreateError(null);
    try {
      put(await api<Phone>('POST', '/phones/create', { body: name ? { phone_name: name } : {} }));
      form.reset();
    } catch (err) {
      setCreateError(errorText(err));
    }
  };
  return (
    <>
      <p className="muted live" data-testid="live">
        {connected ? 'Live: changes show as they happen.' : 'Reconnecting… (reading every second meanwhile)'}
      </p>
      {isAdmin(me?.role) && (
        <form className="row" onSubmit={(e) => void create(e)} aria-label="Add a phone">
          <label>
            New phone&apos;s name
            <input name="phone_name" maxLength={100} />
          </label>
          <button type="submit">Add phone</button>
          <ErrorNote error={createError} />
        </form>
      )}
      <ErrorNote error={error} />
      {phones === null && !error && <p role="status">Loading phones…</p>}
      {phones?.length === 0 && <p>No phones yet.</p>}
      <ul className="cards" aria-label="Phones">
        {phones?.map((phone) => (
          <PhoneCard key={phone.phone_id} phone={phone} onDeleted={remove} />
        ))}
      </ul>
    </>
  );
}
