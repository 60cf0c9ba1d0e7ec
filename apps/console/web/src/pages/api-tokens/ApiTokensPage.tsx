import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { api, errorText } from '../../api/client';
import { digits, type ApiToken, type Phone } from '../../api/types';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorNote, StatusNote } from '../../components/ErrorNote';
import { TableHead } from '../../components/TableHead';
import { TokenNote } from './TokenNote';
import { createBody, scopeText, when } from './tokens-view';
import { TableScroll } from '../../components/TableScroll';

/** The organization's API tokens (owners and admins): create one (shown once), see their use, revoke. */
export function ApiTokensPage() {
  const [tokens, setTokens] = useState<ApiToken[] | null>(null);
  const [phones, setPhones] = useState<Phone[]>([]);
  const [ticked, setTicked] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);
  const load = useCallback(async () => {
    try {
      const [list, all] = await Promise.all([api<{ tokens: ApiToken[] }>('GET', '/api-tokens'), api<Phone[]>('GET', '/phones/all')]);
      setTokens(list.tokens);
      setPhones(all);
    } catch (err) {
      setError(errorText(err));
    }
  }, []);
  useEffect(() => void load(), [load]);
  const create = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    setError(null);
    setNote(null);
    try {
      const made = await api<ApiToken & { token: string }>('POST', '/api-tokens/create', {
        body: createBody(String(new FormData(form).get('name') ?? ''), ticked),
      });
      setCreated({ name: made.name, token: made.token });
      form.reset();
      setTicked([]);
      await load();
    } catch (err) {
      setError(errorText(err));
    }
  };
  const revoke = (t: ApiToken) => async () => {
    setError(null);
    try {
      await api('DELETE', `/api-tokens/${t.id}`);
      await load();
      setNote(`"${t.name}" is revoked: requests with it are refused from now on.`);
    } catch (err) {
      setError(`Revoke: ${errorText(err)}`);
    }
  };
  const tick = (id: string, on: boolean) => setTicked((t) => (on ? [...t, id] : t.filter((x) => x !== id)));
  return (
    <>
      <form className="stack" onSubmit={(e) => void create(e)} aria-label="Create an API token">
        <label>
          Name
          <input name="name" required maxLength={100} placeholder="CRM sync" />
        </label>
        {phones.length > 0 && (
          <fieldset>
            <legend>Phones (none ticked: every phone, and phones added later)</legend>
            {phones.map((p) => (
              <label key={p.phone_id} className="check">
                <input type="checkbox" checked={ticked.includes(p.phone_id)} onChange={(e) => tick(p.phone_id, e.currentTarget.checked)} />
                {p.phone_name ? `${p.phone_name} ` : ''}
                {p.org_phone ? `+${digits(p.org_phone)}` : `(no number yet: ${p.phone_id})`}
              </label>
            ))}
          </fieldset>
        )}
        <div className="row">
          <button type="submit">Create token</button>
        </div>
      </form>
      <TokenNote token={created} onDone={() => setCreated(null)} />
      <ErrorNote error={error} />
      <StatusNote note={note} />
      {tokens === null && !error && <p role="status">Loading tokens…</p>}
      {tokens?.length === 0 && <p>No API tokens yet.</p>}
      {tokens && tokens.length > 0 && (
        <TableScroll label="API tokens (scrolls sideways)">
          <table className="table">
            <caption>API tokens</caption>
            <TableHead columns={['Name', 'Starts with', 'Phones', 'Created', 'Last used', 'State', 'Actions']} />
            <tbody>
              {tokens.map((t) => (
                <tr key={t.id} data-token-id={t.id}>
                  <td>{t.name}</td>
                  <td>
                    <code>{t.prefix}…</code>
                  </td>
                  <td>{scopeText(t, phones)}</td>
                  <td>{when(t.created_at)}</td>
                  <td>{when(t.last_used_at)}</td>
                  <td data-testid="token-state">{t.revoked_at ? `revoked ${when(t.revoked_at)}` : 'active'}</td>
                  <td>
                    {!t.revoked_at && (
                      <ConfirmButton
                        label="Revoke"
                        question={`Revoke "${t.name}" (${t.prefix}…)? Every request made with it is refused from then on; this cannot be undone.`}
                        confirmLabel="Revoke"
                        danger
                        onConfirm={revoke(t)}
                      />
                    )}
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
