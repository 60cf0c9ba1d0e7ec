import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { api, errorText } from '../../api/client';
import { digits, type Member } from '../../api/types';
import { ErrorNote } from '../../components/ErrorNote';
import { TableHead } from '../../components/TableHead';

interface InviteAnswer {
  invitations: { email: string; invite_url: string | null; delivery: string }[];
  errors?: unknown[];
}

/** The organization's members, and invitations (owners and admins). Roles, access and removal come next. */
export function MembersPage() {
  const [members, setMembers] = useState<Member[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [links, setLinks] = useState<InviteAnswer['invitations']>([]);
  const load = useCallback(async () => {
    try {
      setMembers(await api<Member[]>('GET', '/members'));
    } catch (err) {
      setError(errorText(err));
    }
  }, []);
  useEffect(() => void load(), [load]);
  const invite = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    setError(null);
    try {
      const answer = await api<InviteAnswer>('POST', '/members/invite', { body: { emails: [String(data.get('email'))], role: data.get('role') } });
      setLinks(answer.invitations);
      form.reset();
      await load();
    } catch (err) {
      setError(errorText(err));
    }
  };
  return (
    <>
      <form className="row" onSubmit={(e) => void invite(e)} aria-label="Invite a member">
        <label>
          Email
          <input name="email" type="email" required />
        </label>
        <label>
          Role
          <select name="role" defaultValue="member">
            <option value="member">member</option>
            <option value="admin">admin</option>
          </select>
        </label>
        <button type="submit">Invite</button>
      </form>
      {links.map((l) => (
        <p key={l.email} role="status">
          {l.invite_url ? (
            <>
              No mail server: pass this link to {l.email}: <code className="link">{l.invite_url}</code>
            </>
          ) : (
            `Invitation mailed to ${l.email}.`
          )}
        </p>
      ))}
      <ErrorNote error={error} />
      <table className="table">
        <caption>Members</caption>
        <TableHead columns={['Email', 'Role', 'Phones', 'Status']} />
        <tbody>
          {members?.map((m) => (
            <tr key={m.user_id}>
              <td>{m.email}</td>
              <td>{m.is_owner ? 'owner' : m.role}</td>
              <td>{m.org_phones === null ? 'all' : m.org_phones.map(digits).join(', ') || 'none'}</td>
              <td>{m.is_active ? 'active' : 'invited'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
