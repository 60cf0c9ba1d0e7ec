import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { api, errorText } from '../../api/client';
import { ErrorNote } from '../../components/ErrorNote';
import { TableHead } from '../../components/TableHead';
import { isLive, percentDone, reportRows, startBody, type ImportRun } from './imports-view';

const POLL_MS = 1000;

/**
 * Moving in from the hosted service (owners): start an import (or a dry run) with the source's API
 * base URL and token, and follow each run live — its step, the history's progress, and per resource
 * what was read, created, updated, skipped and failed. Starting the same source again resumes an
 * interrupted run or brings what changed since the last one.
 */
export function ImportsPage() {
  const [runs, setRuns] = useState<ImportRun[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const load = useCallback(async () => {
    try {
      setRuns((await api<{ imports: ImportRun[] }>('GET', '/imports')).imports);
    } catch (err) {
      setError(errorText(err));
    }
  }, []);
  useEffect(() => void load(), [load]);
  const live = runs?.some(isLive) ?? false;
  useEffect(() => {
    if (!live) return undefined;
    const timer = setInterval(() => void load(), POLL_MS);
    return () => clearInterval(timer);
  }, [live, load]);
  const start = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    setError(null);
    setBusy(true);
    try {
      await api('POST', '/imports', {
        body: startBody({
          from: String(data.get('from') ?? ''),
          token: String(data.get('token') ?? ''),
          phones: String(data.get('phones') ?? ''),
          since: String(data.get('since') ?? ''),
          dryRun: data.get('dry_run') === 'on',
        }),
      });
      (e.target as HTMLFormElement).reset();
      await load();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <p>
        Bring an organization over from the hosted service: phones (to scan again here), contacts, chats with their whole history, labels,
        custom properties, tickets, notes, tasks, the knowledge base, and webhooks and workflows (imported switched off). Run it again at
        any time: it resumes where it stopped and brings only what changed.
      </p>
      <form className="stack" onSubmit={(e) => void start(e)} aria-label="Start an import">
        <label>
          Source API base URL
          <input name="from" type="url" required placeholder="https://api.example.com/v1" />
        </label>
        <label>
          Source API token (used for this run only, never stored)
          <input name="token" type="password" required autoComplete="off" />
        </label>
        <label>
          Phones (numbers or phone ids, comma-separated; empty: every phone)
          <input name="phones" />
        </label>
        <label>
          Messages since (empty: the whole history)
          <input name="since" type="datetime-local" />
        </label>
        <label className="check">
          <input name="dry_run" type="checkbox" /> Dry run (read everything, write nothing)
        </label>
        <div className="row">
          <button type="submit" disabled={busy}>
            {busy ? 'Starting…' : 'Start import'}
          </button>
        </div>
      </form>
      <ErrorNote error={error} />
      {runs === null && !error && <p role="status">Loading imports…</p>}
      {runs?.length === 0 && <p>No import yet.</p>}
      {runs?.map((run) => (
        <RunCard key={run.import_id} run={run} />
      ))}
    </>
  );
}

function RunCard({ run }: { run: ImportRun }) {
  const pct = percentDone(run);
  return (
    <section className="card" aria-label={`Import ${run.import_id}`}>
      <h3>
        {run.source_url} {run.dry_run && <span className="chip">dry run</span>}{' '}
        <span className={`status status-${run.status}`}>{run.status}</span>
      </h3>
      <p>
        Started {new Date(run.created_at).toLocaleString()}
        {run.finished_at ? `, finished ${new Date(run.finished_at).toLocaleString()}` : ''}
        {isLive(run) && run.progress.step ? ` — now: ${run.progress.step}` : ''}
      </p>
      {pct !== null && (
        <p>
          <progress max={100} value={pct} aria-label="History imported" /> {run.progress.chats_done} of {run.progress.chats_total} chats
        </p>
      )}
      {run.error && (
        <p role="alert">
          {run.error.code}: {run.error.message} — start it again to resume.
        </p>
      )}
      {run.status === 'interrupted' && <p>Interrupted (the importer stopped): start it again with the token to resume.</p>}
      <table>
        <TableHead columns={['Resource', 'Read', 'Created', 'Updated', 'Skipped', 'Failed']} />
        <tbody>
          {reportRows(run).map((r) => (
            <tr key={r.resource}>
              <td>{r.resource}</td>
              <td>{r.read}</td>
              <td>{r.created}</td>
              <td>{r.updated}</td>
              <td>{r.skipped}</td>
              <td>{r.failed}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
