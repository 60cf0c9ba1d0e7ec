import { useCallback, useEffect, useState } from 'react';
import { api, errorText } from '../../api/client';
import type { QueueJob, QueueStatus } from '../../api/types';
import { isAdmin, useSession } from '../../app/session';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorNote, StatusNote } from '../../components/ErrorNote';
import { PhonePicker, phoneLabel, usePhoneChoice } from '../../components/PhonePicker';
import { JOB_STATUSES, jobsPath, purgeable, queueCounts, when } from './queue-view';
import { TableHead } from '../../components/TableHead';
import { TableScroll } from '../../components/TableScroll';

/** While the page is open the counts and jobs are read again this often (the queue has no events). */
const REFRESH_MS = 2_000;

/** The send queue of one phone: its depth, its jobs (newest first), and (owners and admins) a purge. */
export function QueuePage() {
  const { me } = useSession();
  const { phones, phoneId, error: phonesError, choose } = usePhoneChoice();
  const [status, setStatus] = useState<QueueStatus | null>(null);
  const [jobs, setJobs] = useState<QueueJob[] | null>(null);
  const [filter, setFilter] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const load = useCallback(async () => {
    if (!phoneId) return;
    try {
      const [s, j] = await Promise.all([
        api<QueueStatus>('GET', '/queue', { phone: phoneId }),
        api<QueueJob[]>('GET', jobsPath(filter), { phone: phoneId }),
      ]);
      setStatus(s);
      setJobs(j);
      setError(null);
    } catch (err) {
      setError(errorText(err));
    }
  }, [phoneId, filter]);
  useEffect(() => {
    setStatus(null);
    setJobs(null);
    void load();
    const timer = setInterval(() => void load(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [load]);
  const admin = isAdmin(me?.role);
  /** Purge mode all (an empty body), or mode queue_ids for one job. */
  const purge = (queueId?: string) => async () => {
    setNote(null);
    setError(null);
    try {
      await api('POST', '/message/queues/purge', { body: queueId ? { queue_ids: [queueId] } : {}, phone: phoneId });
      setNote(
        queueId ? `Job ${queueId.slice(0, 8)} removed: it will not be sent.` : 'Queue purged: none of the unsent messages will be sent.',
      );
      await load();
    } catch (err) {
      setError(`Purge: ${errorText(err)}`);
    }
  };
  if (phonesError) return <ErrorNote error={phonesError} />;
  if (!phones) return <p role="status">Loading phones…</p>;
  if (phones.length === 0) return <p>No phones yet.</p>;
  const phone = phones.find((p) => p.phone_id === phoneId);
  return (
    <>
      <div className="row">
        <PhonePicker phones={phones} phoneId={phoneId} choose={choose} />
        <label>
          Jobs
          <select value={filter} onChange={(e) => setFilter(e.target.value)}>
            <option value="">all</option>
            {JOB_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        {admin ? (
          <ConfirmButton
            label="Purge queue"
            question={`Remove every message of ${phone ? phoneLabel(phone) : 'this phone'} not yet sent (${status?.pending ?? 0} waiting or scheduled)? They will never be sent.`}
            confirmLabel="Purge"
            danger
            disabled={!status}
            onConfirm={purge()}
          />
        ) : (
          <p className="muted">Purging a queue is for owners and admins.</p>
        )}
      </div>
      <StatusNote note={note} />
      <ErrorNote error={error} />
      {status && (
        <dl className="counts" aria-label="Queue depth" data-testid="queue-counts">
          {queueCounts(status).map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd data-count={label.toLowerCase()}>{value}</dd>
            </div>
          ))}
          <div>
            <dt>Worker</dt>
            <dd>{status.is_running ? 'running' : 'idle'}</dd>
          </div>
        </dl>
      )}
      {jobs === null && !error && <p role="status">Loading jobs…</p>}
      {jobs && (
        <TableScroll label="Jobs (scrolls sideways)">
          <table className="table">
            <caption>
              Jobs, newest first ({jobs.length}
              {jobs.length ? `, ${purgeable(jobs)} not yet sent` : ''})
            </caption>
            <TableHead columns={['Job', 'Status', 'Chat', 'Message', 'Added', 'Attempts', admin && 'Remove']} />
            <tbody>
              {jobs.map((j) => (
                <tr key={j.id} data-job-id={j.id}>
                  <td className="mono">{j.id.slice(0, 8)}</td>
                  <td>
                    {j.status}
                    {j.failed_reason ? ` (${j.failed_reason})` : ''}
                  </td>
                  <td>{j.data.chat_id}</td>
                  <td className="preview">{j.data.body ?? ''}</td>
                  <td>{when(j.addedTimestamp)}</td>
                  <td>{j.attemptsMade}</td>
                  {admin && (
                    <td>
                      {(j.status === 'waiting' || j.status === 'delayed') && (
                        <ConfirmButton
                          label="Remove"
                          question={`Remove the message to ${j.data.chat_id} from the queue? It will not be sent.`}
                          confirmLabel="Remove"
                          danger
                          onConfirm={purge(j.id)}
                        />
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </>
  );
}
