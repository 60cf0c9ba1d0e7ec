import { useCallback, useEffect, useState } from 'react';
import { api, errorText } from '../../api/client';
import { useRealtimeConnected, useRealtimeEvents } from '../../api/realtime';
import type { Phone } from '../../api/types';

const PHONE_EVENTS = ['org.phone.qr', 'org.phone.connected', 'org.phone.disconnected', 'org.phone.updated'] as const;
/** While the realtime socket is down, the list is read again this often (the "within 1 s"). */
export const POLL_MS = 1_000;

/**
 * The phones the session reaches, kept current without reload: each org.phone.* event carries the
 * whole phone and replaces it; the list is read again at each (re)connection of the socket, and
 * every POLL_MS while it is not connected.
 */
export function usePhones() {
  const [phones, setPhones] = useState<Phone[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    try {
      setPhones(await api<Phone[]>('GET', '/phones/all'));
      setError(null);
    } catch (err) {
      setError(errorText(err));
    }
  }, []);
  const connected = useRealtimeConnected(() => void load());
  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => {
    if (connected) return;
    const timer = setInterval(() => void load(), POLL_MS);
    return () => clearInterval(timer);
  }, [connected, load]);
  useRealtimeEvents(PHONE_EVENTS, (_name, data) => {
    const phone = data as Phone;
    setPhones((list) => {
      if (!list) return list;
      const at = list.findIndex((p) => p.phone_id === phone.phone_id);
      // Events may arrive out of order with a read: keep the newer of the two.
      if (at >= 0) return list[at].updated_at > phone.updated_at ? list : list.map((p, i) => (i === at ? phone : p));
      return [...list, phone];
    });
  });
  const remove = (phoneId: string) => setPhones((list) => list?.filter((p) => p.phone_id !== phoneId) ?? null);
  const put = (phone: Phone) => setPhones((list) => (list?.some((p) => p.phone_id === phone.phone_id) ? list : [...(list ?? []), phone]));
  return { phones, error, connected, reload: load, remove, put };
}
