import { useState, type FormEvent } from 'react';
import { api } from '../../api/client';
import type { WebhookSubscription } from '../../api/types';
import { Link } from '../../app/Link';
import { ConfirmButton } from '../../components/ConfirmButton';
import { EventSelect } from '../../components/delivery-log/EventSelect';
import { ErrorNote, StatusNote } from '../../components/ErrorNote';
import { SecretNote } from './SecretNote';
import { editBody, outcome, subscriptionName } from './webhook-view';
import { DeliveryLog } from '../../components/delivery-log/DeliveryLog';
import { ReplayForm } from '../../components/delivery-log/ReplayForm';
import { useDeliveryLog } from '../../components/delivery-log/use-delivery-log';

/** One subscription: edit it, rotate its secret, its delivery log (newest first), redeliver, replay. */
export function WebhookPage({ id }: { id: string }) {
  const { item: sub, setItem: setSub, run, setNote, ...delivery } = useDeliveryLog<WebhookSubscription>(`/webhooks/${id}`);
  const [secret, setSecret] = useState<{ id: string; secret: string } | null>(null);
  const save = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    if (!sub) return;
    const body = editBody(sub, {
      hookUrl: String(data.get('hookUrl') ?? ''),
      integrationName: String(data.get('event') ?? ''),
      name: String(data.get('name') ?? ''),
    });
    if (!body) return setNote('Nothing to change.');
    void run('Save', async () => {
      setSub(await api<WebhookSubscription>('PATCH', `/webhooks/${id}`, { body }));
      return 'Saved.';
    });
  };
  return (
    <>
      <p>
        <Link to="/webhooks">← All subscriptions</Link>
      </p>
      <ErrorNote error={delivery.error} />
      <StatusNote note={delivery.note} />
      {sub && (
        <section aria-labelledby="sub-title" className="card">
          <h2 id="sub-title">{subscriptionName(sub)}</h2>
          <p className="muted">
            {sub.is_subscribed ? 'active' : 'paused'} · since {new Date(sub.subscribed_at).toLocaleString()} · {sub.id}
          </p>
          <form key={`${sub.hook_url}/${sub.integration_name}`} className="row" onSubmit={save} aria-label="Edit the subscription">
            <label>
              Receiver URL
              <input name="hookUrl" type="url" required defaultValue={sub.hook_url} maxLength={2048} />
            </label>
            <EventSelect defaultValue={sub.integration_name} />
            <label>
              Name
              <input name="name" defaultValue={sub.integration_metadata?.name ?? ''} maxLength={200} />
            </label>
            <button type="submit">Save</button>
            <ConfirmButton
              label="Rotate secret"
              question="Replace the signing secret? The old one keeps verifying for the rotation overlap (24 h by default), then only the new one does."
              confirmLabel="Rotate"
              onConfirm={() => run('Rotate', async () => void setSecret(await api('POST', `/webhooks/${id}/secret/rotate`)))}
            />
          </form>
          <SecretNote secret={secret} onDone={() => setSecret(null)} />
        </section>
      )}
      <ReplayForm onReplay={delivery.replay} onError={delivery.setError} />
      <DeliveryLog
        log={delivery.log}
        loadingError={!!delivery.error}
        empty="No delivery yet: events of this name are delivered as they happen."
        outcome={outcome}
        withResponse
        onRedeliver={delivery.redeliver}
      />
    </>
  );
}
