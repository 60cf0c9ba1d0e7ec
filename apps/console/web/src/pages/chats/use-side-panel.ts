import { useCallback, useEffect, useRef, useState } from 'react';
import { api, errorText } from '../../api/client';
import { useRealtimeConnected, useRealtimeEvents } from '../../api/realtime';
import { digits, type ChatDetail, type Label, type Member, type Ticket } from '../../api/types';
import { contactIdOf, type CustomPropertyDef } from './side-panel-view';

/** A ticket as GET /v1/tickets lists it, with the fields the panel shows. */
export type PanelTicketRow = Ticket & { due_date?: string | null; label_ids?: Record<string, boolean> | null; custom_properties?: unknown };

/** GET /v1/contacts/{contact_id}: what the panel shows. */
export interface Contact {
  contact_id: string;
  contact_name: string | null;
  number?: string | null;
  labels: string[];
}

const enc = encodeURIComponent;

/**
 * What the side panel shows of the open chat, each read through its public route with the chat's
 * phone as x-phone: the chat (GET /chats/{chat_id}), its tickets (GET /tickets?chat_id=), the
 * contact of a one-to-one chat (GET /contacts/{contact_id}); the catalogues (GET /labels, every type,
 * /custom-properties, /members) once, the labels again after the chat's change. Re-read on the chat's chat.*
 * and ticket.* events. Nothing is read until `ready` (the conversation's newest messages are in): a
 * switch asks the messages alone first, the panel's six reads after (docs/benchmarks.md, "Inbox chat list (50,000 chats)").
 */
export function useSidePanel(chatId: string, phone: string, ready = true) {
  const [chat, setChat] = useState<ChatDetail | null>(null);
  const [tickets, setTickets] = useState<PanelTicketRow[] | null>(null);
  const [contact, setContact] = useState<Contact | null>(null);
  const [labels, setLabels] = useState<Map<string, Label>>(new Map());
  const [properties, setProperties] = useState<CustomPropertyDef[]>([]);
  const [members, setMembers] = useState<Member[]>([]);
  const [error, setError] = useState<string | null>(null);
  const loadChat = useCallback(
    () =>
      api<ChatDetail>('GET', `/chats/${enc(chatId)}`, { phone }).then(
        (c) => {
          setChat(c);
          setError(null);
        },
        (err) => setError(`This chat's details could not be read: ${errorText(err)}`),
      ),
    [chatId, phone],
  );
  const loadTickets = useCallback(
    () =>
      api<{ tickets: PanelTicketRow[] }>('GET', `/tickets?chat_id=${enc(chatId)}&limit=100`, { phone }).then(
        (a) => setTickets(a.tickets),
        () => setTickets([]),
      ),
    [chatId, phone],
  );
  const loadContact = useCallback(() => {
    const id = contactIdOf(chatId);
    if (!id) return Promise.resolve(setContact(null));
    return api<Contact>('GET', `/contacts/${enc(id)}`, { phone }).then(setContact, () => setContact(null));
  }, [chatId, phone]);
  const loadLabels = useCallback(
    () =>
      api<{ labels: Label[] }>('GET', '/labels').then(
        (a) => setLabels(new Map(a.labels.map((l) => [l.label_id, l]))),
        () => undefined,
      ),
    [],
  );
  const all = useCallback(() => {
    if (!ready) return;
    void loadChat();
    void loadTickets();
    void loadContact();
  }, [loadChat, loadTickets, loadContact, ready]);
  useEffect(all, [all]);
  useEffect(() => {
    if (!ready) return;
    void loadLabels();
    api<{ custom_properties: CustomPropertyDef[] }>('GET', '/custom-properties').then(
      (a) => setProperties(a.custom_properties),
      () => setProperties([]),
    );
    api<Member[]>('GET', '/members').then(setMembers, () => setMembers([]));
  }, [loadLabels, ready]);
  useRealtimeConnected(all);
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => void (pending.current && clearTimeout(pending.current)), []);
  const ofChat = (d: unknown) => {
    const x = d as { chat_id?: string; org_phone?: string | null } | null;
    return !!x && x.chat_id === chatId && (!x.org_phone || digits(x.org_phone) === phone);
  };
  useRealtimeEvents(['chat.updated', 'chat.label.updated', 'chat.custom_properties.updated'], (_name, data) => {
    if (!ofChat(data)) return;
    pending.current ??= setTimeout(() => {
      pending.current = null;
      void loadLabels();
      void loadChat();
    }, 200);
  });
  useRealtimeEvents(['ticket.created', 'ticket.updated', 'ticket.deleted'], (_name, data) => {
    const t = data as { chat_id?: string } | null;
    if (t?.chat_id && t.chat_id !== chatId) return;
    void loadTickets();
  });
  return {
    chat,
    tickets,
    contact,
    labels,
    properties,
    members,
    error,
    setChat,
    setContact,
    reloadChat: loadChat,
    reloadTickets: loadTickets,
    reloadLabels: loadLabels,
  };
}
