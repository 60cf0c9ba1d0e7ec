import { useMemo, useState } from 'react';
import type { ChatDetail, Message } from '../../api/types';
import { digits } from '../../api/types';
import { ErrorNote } from '../../components/ErrorNote';
import { ChatDetailsCard } from './ChatDetailsCard';
import { NewTicketForm } from './NewTicketForm';
import { TicketCard } from './TicketCard';
import { assigneeChoices, orderTickets, ticketLabelText } from './side-panel-view';
import { useSidePanel, type Contact } from './use-side-panel';

function ContactCard({ contact, chat }: { contact: Contact | null; chat: ChatDetail }) {
  const number = contact?.number ?? (contact ? digits(contact.contact_id) : null);
  return (
    <section className="panel-card" aria-labelledby="panel-contact">
      <h3 id="panel-contact">Contact</h3>
      {contact ? (
        <dl className="panel-contact">
          <dt>Name</dt>
          <dd data-testid="contact-name">{contact.contact_name ?? chat.contact_name ?? '—'}</dd>
          <dt>Number</dt>
          <dd data-testid="contact-number">+{number}</dd>
          <dt>Labels</dt>
          <dd data-testid="contact-labels">{contact.labels.length ? contact.labels.join(', ') : 'none'}</dd>
        </dl>
      ) : (
        <p className="muted">
          {chat.chat_type === 'group' ? `A group: ${chat.chat_name ?? chat.name ?? chat.chat_id}` : 'No contact details.'}
        </p>
      )}
    </section>
  );
}

/**
 * Beside the conversation: the chat's tickets (open one from the chat or, with `ticketFrom`, from a
 * message; change, close with a note), the chat's labels, assignee and custom properties, and the
 * contact's name, number and labels. Every change is a public API call with the chat's phone.
 */
export function SidePanel(props: { chatId: string; phone: string; ticketFrom: Message | null; clearTicketFrom: () => void }) {
  const panel = useSidePanel(props.chatId, props.phone);
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
      {chat && <ContactCard contact={panel.contact} chat={chat} />}
    </aside>
  );
}
