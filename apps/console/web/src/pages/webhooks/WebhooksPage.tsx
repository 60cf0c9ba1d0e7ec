import { useState, type FormEvent } from 'react';
import { api } from '../../api/client';
import type { WebhookSubscription } from '../../api/types';
import { Link } from '../../app/Link';
import { ConfirmButton } from '../../components/ConfirmButton';
import { EventSelect } from '../../components/delivery-log/EventSelect';
import { ErrorNote } from '../../components/ErrorNote';
import { SecretNote } from './SecretNote';
import { subscriptionName } from './webhook-view';
import { ListTable } from '../../components/ListTable';
import { useListing } from '../../components/use-listing';

/** The organization's webhook subscriptions (owners and admins): subscribe a URL, pause, resume, delete. */
export function WebhooksPage() {
  const { items: subs, error, act } = useListing<WebhookSubscription, WebhookSubscription[]>('/webhooks', (a: WebhookSubscription[]) => a);
  const [secret, setSecret] = useState<{ id: string; secret: string } | null>(null);
  const create = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    const name = String(data.get('name') ?? '').trim();
    return act(async () => {
      const created = await api<(WebhookSubscription & { secret: string })[]>('POST', '/webhooks', {
        body: { hookUrl: String(data.get('hookUrl')).trim(), integrationName: data.get('event'), ...(name ? { name } : {}) },
      });
      setSecret({ id: created[0].id, secret: created[0].secret });
      form.reset();
      return '';
    });
  };
  /** A row's change (no note of its own: the table shows its effect), then the listing read again. */
  const change = (label: string, call: () => Promise<unknown>) => () =>
    act(async () => {
      await call();
      return '';
    }, `${label}: `);
  return (
    <>
      <form className="row" onSubmit={(e) => void create(e)} aria-label="Subscribe a URL">
        <label>
          Receiver URL
          <input name="hookUrl" type="url" required maxLength={2048} placeholder="https://example.com/hooks" />
        </label>
        <EventSelect defaultValue="message.created" />
        <label>
          Name (optional)
          <input name="name" maxLength={200} />
        </label>
        <button type="submit">Subscribe</button>
      </form>
      <SecretNote secret={secret} onDone={() => setSecret(null)} />
      <ErrorNote error={error} />
      <ListTable
        items={subs}
        error={error}
        loading="Loading subscriptions…"
        empty="No subscriptions yet."
        label="Subscriptions"
        columns={['Name', 'Event', 'URL', 'State', 'Actions']}
        row={(s) => (
          <tr key={s.id} data-webhook-id={s.id}>
            <td>
              <Link to={`/webhooks/${s.id}`}>{subscriptionName(s)}</Link>
            </td>
            <td>{s.integration_name}</td>
            <td className="link">{s.hook_url}</td>
            <td data-testid="webhook-state">{s.is_subscribed ? 'active' : 'paused'}</td>
            <td className="row">
              <button
                type="button"
                className="secondary"
                onClick={() =>
                  void change(s.is_subscribed ? 'Pause' : 'Resume', () =>
                    api('PATCH', `/webhooks/${s.id}`, { body: { isSubscribed: !s.is_subscribed } }),
                  )()
                }
              >
                {s.is_subscribed ? 'Pause' : 'Resume'}
              </button>
              <ConfirmButton
                label="Delete"
                question={`Delete the subscription of ${s.hook_url} to ${s.integration_name}? Its delivery log goes with it.`}
                confirmLabel="Delete"
                danger
                onConfirm={change('Delete', () => api('DELETE', `/webhooks/${s.id}`))}
              />
            </td>
          </tr>
        )}
      />
    </>
  );
}
