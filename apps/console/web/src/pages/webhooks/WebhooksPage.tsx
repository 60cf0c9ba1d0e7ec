import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { api, errorText } from '../../api/client';
import { EVENT_NAMES } from '../../api/event-names';
import type { WebhookSubscription } from '../../api/types';
import { Link } from '../../app/Link';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorNote } from '../../components/ErrorNote';
import { SecretNote } from './SecretNote';
import { subscriptionName } from './webhook-view';
import { TableHead } from '../../components/TableHead';
import { TableScroll } from '../../components/TableScroll';

/** The organization's webhook subscriptions (owners and admins): subscribe a URL, pause, resume, delete. */
export function WebhooksPage() {
  const [subs, setSubs] = useState<WebhookSubscription[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [secret, setSecret] = useState<{ id: string; secret: string } | null>(null);
  const load = useCallback(async () => {
    try {
      setSubs(await api<WebhookSubscription[]>('GET', '/webhooks'));
    } catch (err) {
      setError(errorText(err));
    }
  }, []);
  useEffect(() => void load(), [load]);
  const create = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    const name = String(data.get('name') ?? '').trim();
    setError(null);
    try {
      const created = await api<(WebhookSubscription & { secret: string })[]>('POST', '/webhooks', {
        body: { hookUrl: String(data.get('hookUrl')).trim(), integrationName: data.get('event'), ...(name ? { name } : {}) },
      });
      setSecret({ id: created[0].id, secret: created[0].secret });
      form.reset();
      await load();
    } catch (err) {
      setError(errorText(err));
    }
  };
  const act = (label: string, run: () => Promise<unknown>) => async () => {
    setError(null);
    try {
      await run();
      await load();
    } catch (err) {
      setError(`${label}: ${errorText(err)}`);
    }
  };
  return (
    <>
      <form className="row" onSubmit={(e) => void create(e)} aria-label="Subscribe a URL">
        <label>
          Receiver URL
          <input name="hookUrl" type="url" required maxLength={2048} placeholder="https://example.com/hooks" />
        </label>
        <label>
          Event
          <select name="event" defaultValue="message.created">
            {EVENT_NAMES.map((n) => (
              <option key={n}>{n}</option>
            ))}
          </select>
        </label>
        <label>
          Name (optional)
          <input name="name" maxLength={200} />
        </label>
        <button type="submit">Subscribe</button>
      </form>
      <SecretNote secret={secret} onDone={() => setSecret(null)} />
      <ErrorNote error={error} />
      {subs === null && !error && <p role="status">Loading subscriptions…</p>}
      {subs?.length === 0 && <p>No subscriptions yet.</p>}
      {subs && subs.length > 0 && (
        <TableScroll label="Subscriptions (scrolls sideways)">
          <table className="table">
            <caption>Subscriptions</caption>
            <TableHead columns={['Name', 'Event', 'URL', 'State', 'Actions']} />
            <tbody>
              {subs.map((s) => (
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
                        void act(s.is_subscribed ? 'Pause' : 'Resume', () =>
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
                      onConfirm={act('Delete', () => api('DELETE', `/webhooks/${s.id}`))}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </>
  );
}
