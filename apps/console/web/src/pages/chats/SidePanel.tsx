import { useEffect, useMemo, useRef, useState } from 'react';
import { api, errorText } from '../../api/client';
import type { ChatDetail, Message } from '../../api/types';
import { useSession } from '../../app/session';
import { ErrorNote, StatusNote } from '../../components/ErrorNote';
import { ChatDetailsCard } from './ChatDetailsCard';
import { ContactCard } from './ContactCard';
import { NewTicketForm } from './NewTicketForm';
import { TicketCard } from './TicketCard';
import { assignToMe, ticketToClose } from './keyboard-view';
import { assigneeChoices, orderTickets, ticketLabelText } from './side-panel-view';
import { useSidePanel } from './use-side-panel';

/** A keyboard shortcut the panel carries out (a new `seq` each time the key is pressed). */
export interface PanelCommand {
  action: 'assign-me' | 'close-ticket';
  seq: number;
}

/**
 * Beside the conversation: the chat's tickets (open one from the chat or, with `ticketFrom`, from a
 * message; change, close with a note), the chat's labels, assignee and custom properties, and the
 * contact's name, number and labels (the name and labels changed there too). Every change is a public
 * API call with the chat's phone. The
 * keyboard's `command`: assign the chat to the signed-in member (PATCH /v1/chats/{chat_id}), or open
 * the close form of the chat's newest open ticket.
 */
export function SidePanel(props: {
  chatId: string;
  phone: string;
  ticketFrom: Message | null;
  clearTicketFrom: () => void;
  command?: PanelCommand | null;
  /** The conversation's first page is in (or failed): the panel reads after it (useSidePanel). */
  ready?: boolean;
}) {
  const panel = useSidePanel(props.chatId, props.phone, props.ready);
  const { me } = useSession();
  const [keyNote, setKeyNote] = useState<string | null>(null);
  const [keyError, setKeyError] = useState<string | null>(null);
  const [closeAsked, setCloseAsked] = useState<{ ticketId: string; seq: number } | null>(null);
  const latest = useRef({ panel, me });
  latest.current = { panel, me };
  const seq = props.command?.seq ?? 0;
  const action = props.command?.action;
  useEffect(() => {
    if (!seq) return;
    const { panel: p, me: who } = latest.current;
    setKeyNote(null);
    setKeyError(null);
    if (action === 'close-ticket') {
      if (p.tickets === null) return setKeyNote("The chat's tickets are still being read; press c again in a moment.");
      const ticket = ticketToClose(p.tickets);
      if (!ticket) return setKeyNote('No open ticket on this chat to close.');
      return setCloseAsked({ ticketId: ticket.ticket_id, seq });
    }
    if (!p.chat) return setKeyNote("The chat's details are not read yet; press a again in a moment.");
    const change = assignToMe(p.chat.assigned_to, who?.member.email);
    if (change === 'already') return setKeyNote('This chat is already assigned to you.');
    if (change === 'unknown') return setKeyError('Who is signed in is not known; reload the page.');
    api<ChatDetail>('PATCH', `/chats/${encodeURIComponent(p.chat.chat_id)}`, { body: change, phone: props.phone }).then(
      (c) => {
        latest.current.panel.setChat(c);
        setKeyNote('Assigned to you.');
      },
      (err) => setKeyError(`The chat was not assigned to you: ${errorText(err)}`),
    );
  }, [seq, action, props.phone]);
  const [creating, setCreating] = useState(false);
  const { chat, tickets } = panel;
  const assignees = useMemo(() => assigneeChoices(panel.members, chat?.assigned_to ?? null), [panel.members, chat?.assigned_to]);
  const ordered = useMemo(() => orderTickets(tickets ?? []), [tickets]);
  const showForm = creating || !!props.ticketFrom;
  const closeForm = () => {
    setCreating(false);
    props.clearTicketFrom();
  };
  return (
    <aside className="side-panel" aria-label="Chat details">
      <ErrorNote error={panel.error} />
      {!chat && !panel.error && <p role="status">Loading the chat's details…</p>}
      <ErrorNote error={keyError} />
      <StatusNote note={keyNote} />
      <section className="panel-card" aria-labelledby="panel-tickets">
        <h3 id="panel-tickets">Tickets</h3>
        {tickets === null ? (
          <p role="status">Loading tickets…</p>
        ) : (
          <ul className="panel-tickets">
            {ordered.length === 0 && <li className="muted">No tickets on this chat.</li>}
            {ordered.map((t) => (
              <TicketCard
                key={t.ticket_id}
                ticket={{ ...t, ticket_labels: ticketLabelText(t.label_ids, panel.labels) }}
                chatId={props.chatId}
                phone={props.phone}
                assignees={assignees}
                properties={panel.properties}
                reload={() => void panel.reloadTickets()}
                closeAsked={closeAsked?.ticketId === t.ticket_id ? closeAsked.seq : 0}
              />
            ))}
          </ul>
        )}
        {showForm ? (
          <NewTicketForm
            chatId={props.chatId}
            phone={props.phone}
            from={props.ticketFrom}
            assignees={assignees}
            cancel={closeForm}
            done={() => {
              closeForm();
              void panel.reloadTickets();
            }}
          />
        ) : (
          <button type="button" className="secondary" onClick={() => setCreating(true)} disabled={!chat}>
            New ticket
          </button>
        )}
      </section>
      {chat && (
        <ChatDetailsCard
          chat={chat}
          phone={props.phone}
          labels={panel.labels}
          properties={panel.properties}
          assignees={assignees}
          changed={(c) => {
            if (c) panel.setChat(c);
            void panel.reloadLabels();
            void panel.reloadChat();
          }}
        />
      )}
      {chat && <ContactCard contact={panel.contact} chat={chat} phone={props.phone} labels={panel.labels} changed={panel.setContact} />}
    </aside>
  );
}
