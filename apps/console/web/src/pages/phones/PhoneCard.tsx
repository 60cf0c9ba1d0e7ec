import { useState } from 'react';
import { api, errorText } from '../../api/client';
import { digits, type Phone } from '../../api/types';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorNote, StatusNote } from '../../components/ErrorNote';
import { QrImage } from '../../components/QrImage';
import { PairingCodeForm } from './PairingCodeForm';

const WAITING = ['UNPAIRED', 'QR', 'LOGGED_OUT'];

/** One phone: its state as it changes, its QR while it waits to be paired, and what can be done to it. */
export function PhoneCard({ phone, onDeleted }: { phone: Phone; onDeleted: (phoneId: string) => void }) {
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const name = phone.phone_name || (phone.org_phone ? `+${digits(phone.org_phone)}` : phone.phone_id);
  const act = (label: string, method: string, path: string, after?: () => void) => async () => {
    setError(null);
    setNote(null);
    try {
      await api(method, path, { phone: phone.phone_id });
      setNote(`${label}: done`);
      after?.();
    } catch (err) {
      setError(`${label}: ${errorText(err)}`);
    }
  };
  return (
    <li className="card phone" data-phone-id={phone.phone_id} aria-labelledby={`${phone.phone_id}-name`}>
      <div className="row spread">
        <h2 id={`${phone.phone_id}-name`}>{name}</h2>
        <span className={`state state-${phone.wa_state.toLowerCase()}`} data-testid="wa-state">
          {phone.wa_state}
        </span>
      </div>
      <p className="muted">
        {phone.org_phone ? `+${digits(phone.org_phone)} · ` : ''}
        {phone.phone_id}
        {phone.sync_status === 'running' ? ` · syncing ${phone.sync_progress}%` : ''}
      </p>
      {phone.wa_state === 'QR' && phone.qr_code && (
        <div className="pairing-box">
          <QrImage text={phone.qr_code} label={`QR code to pair ${name}: scan it with the phone`} />
          <PairingCodeForm phoneId={phone.phone_id} />
        </div>
      )}
      {WAITING.includes(phone.wa_state) && !phone.qr_code && <p className="muted">Waiting for a QR code…</p>}
      <div className="row actions">
        <ConfirmButton
          label="Restart"
          question={`Restart the session of ${name}?`}
          confirmLabel="Restart"
          onConfirm={act('Restart', 'POST', '/phones/restart')}
        />
        <ConfirmButton
          label="Resync"
          question={`Read the history of ${name} again from the phone?`}
          confirmLabel="Resync"
          disabled={phone.wa_state !== 'CONNECTED'}
          onConfirm={act('Resync', 'POST', '/phones/resync')}
        />
        <ConfirmButton
          label="Reset"
          question={`Log ${name} out? It goes back to a QR code to scan.`}
          confirmLabel="Log out"
          danger
          onConfirm={act('Reset', 'POST', '/phones/reset')}
        />
        <ConfirmButton
          label="Delete"
          question={`Delete ${name}? It is logged out; its messages stay.`}
          confirmLabel="Delete"
          danger
          onConfirm={act('Delete', 'DELETE', '/phones/delete', () => onDeleted(phone.phone_id))}
        />
      </div>
      <StatusNote note={note} />
      <ErrorNote error={error} />
    </li>
  );
}
