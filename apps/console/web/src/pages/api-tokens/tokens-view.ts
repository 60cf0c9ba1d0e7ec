import { digits, type ApiToken, type Phone } from '../../api/types';

/** What a token reaches, in words: every phone, or its phones by name/number (an id for one gone). */
export function scopeText(token: Pick<ApiToken, 'phone_scope'>, phones: Phone[]): string {
  if (token.phone_scope === null) return 'Every phone';
  return token.phone_scope
    .map((id) => {
      const p = phones.find((x) => x.phone_id === id);
      if (!p) return id;
      const number = p.org_phone ? `+${digits(p.org_phone)}` : p.phone_id;
      return p.phone_name ? `${p.phone_name} (${number})` : number;
    })
    .join(', ');
}

/** The create body: the trimmed name, and the ticked phones (none ticked: every phone, so no orgPhones). */
export function createBody(name: string, ticked: string[]): { name: string; orgPhones?: string[] } {
  const phones = [...new Set(ticked)];
  return phones.length ? { name: name.trim(), orgPhones: phones } : { name: name.trim() };
}

/** A date for the table, or a dash. */
export const when = (iso: string | null): string => (iso ? new Date(iso).toLocaleString() : '—');
