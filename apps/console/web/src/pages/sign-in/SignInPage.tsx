import { useState, type FormEvent } from 'react';
import { api, errorText } from '../../api/client';
import { useSession } from '../../app/session';
import { ErrorNote } from '../../components/ErrorNote';

/** Email and password → POST /v1/auth/sign-in; the answer's cookies make the session. */
export function SignInPage() {
  const { refresh } = useSession();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setBusy(true);
    setError(null);
    try {
      await api('POST', '/auth/sign-in', { body: { email: form.get('email'), password: form.get('password') } });
      await refresh();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main className="auth">
      <h1>Sign in to the mapi console</h1>
      <form onSubmit={(e) => void submit(e)} className="stack">
        <label>
          Email
          <input name="email" type="email" autoComplete="username" required />
        </label>
        <label>
          Password
          <input name="password" type="password" autoComplete="current-password" required />
        </label>
        <ErrorNote error={error} />
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
