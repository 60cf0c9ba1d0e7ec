import { useEffect, useState } from 'react';
import { api, errorText } from '../api/client';
import { digits, type Phone } from '../api/types';
import { navigate, useLocation } from '../app/router';

export const phoneLabel = (p: Phone): string => p.phone_name || (p.org_phone ? `+${digits(p.org_phone)}` : p.phone_id);

/**
 * The phones the session reaches (GET /v1/phones/all) and the one chosen, kept in the address as
 * `?phone=<phone_id>` (a link or a reload keeps it); the first phone when none is chosen.
 */
export function usePhoneChoice(): { phones: Phone[] | null; phoneId: string | null; error: string | null; choose(phoneId: string): void } {
  const [phones, setPhones] = useState<Phone[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { path, query } = useLocation();
  useEffect(() => {
    api<Phone[]>('GET', '/phones/all').then(setPhones, (err) => setError(errorText(err)));
  }, []);
  const asked = query.get('phone');
  const phoneId = phones?.find((p) => p.phone_id === asked)?.phone_id ?? phones?.[0]?.phone_id ?? null;
  return { phones, phoneId, error, choose: (id) => navigate(`${path}?phone=${encodeURIComponent(id)}`, { replace: true }) };
}

/** A select of the phones (for pages that show one phone at a time). */
export function PhonePicker({ phones, phoneId, choose }: { phones: Phone[]; phoneId: string | null; choose(phoneId: string): void }) {
  return (
    <label>
      Phone
      <select value={phoneId ?? ''} onChange={(e) => choose(e.target.value)}>
        {phones.map((p) => (
          <option key={p.phone_id} value={p.phone_id}>
            {phoneLabel(p)} ({p.wa_state})
          </option>
        ))}
      </select>
    </label>
  );
}
