// The fields of the API's objects that the console reads (the API's full shapes are in
// libs/contracts; the console keeps to these so its bundle carries no schema code).

export type Role = 'owner' | 'admin' | 'member';

export interface Me {
  member: { email: string };
  org_id: string;
  role: Role;
  /** The phones the member reaches; null: every phone. */
  phone_ids: string[] | null;
}

export interface Phone {
  phone_id: string;
  org_phone: string | null;
  phone_name: string | null;
  wa_state: string;
  qr_code: string | null;
  is_ready: boolean;
  sync_status: 'idle' | 'running' | 'failed';
  sync_progress: number;
  updated_at: string;
}

export interface Chat {
  chat_id: string;
  org_phone: string;
  chat_name?: string | null;
  name?: string | null;
  contact_name?: string | null;
  latest_message?: Message | null;
  latest_message_timestamp?: number | null;
}

export interface Message {
  message_id: string;
  unique_id?: string | null;
  chat_id: string;
  org_phone: string;
  body: string | null;
  from_me: boolean;
  timestamp: string | null;
  ack?: string | null;
  sender_name?: string | null;
}

export interface Member {
  user_id: string;
  email: string;
  role: 'admin' | 'member';
  is_owner: boolean | null;
  is_active: boolean;
  org_phones: string[] | null;
}

/** `447700900123@c.us` → `447700900123` (the form x-phone accepts). */
export const digits = (orgPhone: string | null): string => (orgPhone ?? '').replace(/@.*$/, '');
