import { useState, type FormEvent } from 'react';
import { api, errorText } from '../../api/client';
import { useSession } from '../../app/session';
import { ErrorNote } from '../../components/ErrorNote';

/** The invitation link's page (`…/accept-invite#token=…`): choose a password, and be signed in. */
export function AcceptInvitePage() {
  const { refresh } = useSession();
  const token = new URLSearchParams(window.location.hash.slice(1)).get('token');
  const [error, setError] = useState<string | null>(
    token ? null : 'This link has no invitation token; open the link from the invitation again.',
  );
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    if (form.get('password') !== form.get('confirm')) return setError('The two passwords differ.');
    setBusy(true);
    setError(null);
    try {
      const name = String(form.get('name') ?? '').trim();
      await api('POST', '/auth/accept-invite', { body: { token, password: form.get('password'), ...(name ? { name } : {}) } });
      // The token must not stay in the address bar or the history.
      window.history.replaceState(null, '', window.location.pathname);
      await refresh();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main className="auth">
      <h1>Join your organization</h1>
      <form onSubmit={(e) => void submit(e)} className="stack">
        <label>
          Your name (optional)
          <input name="name" autoComplete="name" />
        </label>
        <label>
          Password (at least 10 characters)
          <input name="password" type="password" autoComplete="new-password" minLength={10} required />
        </label>
        <label>
          Password again
          <input name="confirm" type="password" autoComplete="new-password" minLength={10} required />
        </label>
        <ErrorNote error={error} />
        <button type="submit" disabled={busy || !token}>
          {busy ? 'Joining…' : 'Join'}
        </button>
      </form>
    </main>
  );
}
