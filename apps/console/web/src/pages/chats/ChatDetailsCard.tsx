import { useState } from 'react';
import { api, errorText } from '../../api/client';
import type { ChatDetail, Label } from '../../api/types';
import { ErrorNote } from '../../components/ErrorNote';
import { ChatLabelsEditor } from './ChatLabelsEditor';
import { PropertiesForm } from './PropertiesForm';
import { chatLabelNames, chatProperties, type CustomPropertyDef } from './side-panel-view';

/**
 * The chat's labels (PATCH /v1/chats/labels), assignee and custom properties (PATCH
 * /v1/chats/{chat_id}); the labels and properties named from their catalogues.
 */
export function ChatDetailsCard(props: {
  chat: ChatDetail;
  phone: string;
  labels: ReadonlyMap<string, Label>;
  properties: CustomPropertyDef[];
  assignees: string[];
  changed: (chat?: ChatDetail) => void;
}) {
  const { chat, phone } = props;
  const [error, setError] = useState<string | null>(null);
  const names = chatLabelNames(chat.label_ids, props.labels);
  const values = chatProperties(props.properties, (chat as { custom_properties?: unknown }).custom_properties);
  const patchChat = async (body: Record<string, unknown>, what: string) => {
    setError(null);
    try {
      props.changed(await api<ChatDetail>('PATCH', `/chats/${encodeURIComponent(chat.chat_id)}`, { body, phone }));
    } catch (err) {
      setError(`The ${what} did not change: ${errorText(err)}`);
    }
  };
  return (
    <section className="panel-card" aria-labelledby="panel-chat">
      <h3 id="panel-chat">Chat</h3>
      <label>
        Assigned to
        <select value={chat.assigned_to ?? ''} onChange={(e) => void patchChat({ assigned_to: e.currentTarget.value || null }, 'assignee')}>
          <option value="">unassigned</option>
          {props.assignees.map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </select>
      </label>
      <ChatLabelsEditor chatId={chat.chat_id} phone={phone} names={names} labels={props.labels} changed={() => props.changed()} />
      <PropertiesForm
        name="Custom properties"
        values={values}
        save={(custom) => patchChat({ custom_properties: custom }, 'custom properties')}
      />
      <ErrorNote error={error} />
    </section>
  );
}
