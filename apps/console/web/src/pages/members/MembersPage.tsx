import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { api, errorText } from '../../api/client';
import type { Member, Phone } from '../../api/types';
import { useSession } from '../../app/session';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorNote, StatusNote } from '../../components/ErrorNote';
import { TableHead } from '../../components/TableHead';
import { AccessDialog } from './AccessDialog';
import { accessBody, accessEditable, labelsText, phonesText, removable, roleChange } from './members-view';
import { TableScroll } from '../../components/TableScroll';

/** Admin ↔ member for anyone but the owner, after a confirmation saying what the new role reaches. */
function RoleButton({ member: m, onChange }: { member: Member; onChange: (m: Member, role: 'admin' | 'member') => Promise<void> }) {
  const change = roleChange(m);
  if (!change) return null;
  const question =
    change.role === 'admin'
      ? `Make ${m.email} an admin? Admins reach every phone and label and manage members, tokens and webhooks.`
      : `Make ${m.email} a member? They keep only the phones and labels of their access.`;
  return <ConfirmButton label={change.label} question={question} confirmLabel={change.label} onConfirm={() => onChange(m, change.role)} />;
}

interface InviteAnswer {
  invitations: { email: string; invite_url: string | null; delivery: string }[];
  errors?: unknown[];
}

/**
 * The organization's members (owners and admins): invite; a member's access to phones and labels
 * (PATCH /members/access; owners and admins reach everything); admin ↔ member (PATCH /members/role)
 * and remove, for anyone but the owner, after a confirmation.
 */
export function MembersPage() {
  const { me, refresh } = useSession();
  const [members, setMembers] = useState<Member[] | null>(null);
  const [phones, setPhones] = useState<Phone[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [links, setLinks] = useState<InviteAnswer['invitations']>([]);
  const load = useCallback(async () => {
    try {
      setMembers(await api<Member[]>('GET', '/members'));
    } catch (err) {
      setError(errorText(err));
    }
  }, []);
  useEffect(() => void load(), [load]);
  useEffect(() => void api<Phone[]>('GET', '/phones/all').then(setPhones, (err) => setError(errorText(err))), []);
  const saveAccess = async (body: ReturnType<typeof accessBody>): Promise<boolean> => {
    setError(null);
    setNote(null);
    try {
      await api<Member[]>('PATCH', '/members/access', { body });
      setNote(`Access of ${body.emails[0]} saved.`);
      await load();
      return true;
    } catch (err) {
      setError(errorText(err));
      return false;
    }
  };
  const remove = async (m: Member) => {
    setError(null);
    setNote(null);
    try {
      await api('DELETE', `/members/${encodeURIComponent(m.user_id ?? m.email)}`);
      // Removing oneself ends one's own session: back to the sign-in page.
      if (m.email === me?.member.email) return void (await refresh());
      setNote(`${m.email} removed.`);
      await load();
    } catch (err) {
      setError(errorText(err));
    }
  };
  const changeRole = async (m: Member, role: 'admin' | 'member') => {
    setError(null);
    setNote(null);
    try {
      await api<Member[]>('PATCH', '/members/role', { body: { emails: [m.email], role } });
      // Demoting oneself takes the page away: read the session again.
      if (m.email === me?.member.email) return void (await refresh());
      setNote(`${m.email} is now ${role === 'admin' ? 'an admin' : 'a member'}.`);
      await load();
    } catch (err) {
      setError(errorText(err));
    }
  };
  const invite = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    setError(null);
    try {
      const answer = await api<InviteAnswer>('POST', '/members/invite', {
        body: { emails: [String(data.get('email'))], role: data.get('role') },
      });
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
      <StatusNote note={note} />
      <TableScroll label="Members (scrolls sideways)">
        <table className="table">
          <caption>Members</caption>
          <TableHead columns={['Email', 'Role', 'Phones', 'Labels', 'Status', 'Actions']} />
          <tbody>
            {members?.map((m) => (
              <tr key={m.user_id ?? m.email} data-member={m.email}>
                <td>{m.email}</td>
                <td>{m.is_owner ? 'owner' : m.role}</td>
                <td data-testid="member-phones">{phonesText(m)}</td>
                <td>{labelsText(m)}</td>
                <td>{m.is_active ? 'active' : 'invited'}</td>
                <td className="actions">
                  {accessEditable(m) ? (
                    <AccessDialog member={m} phones={phones} onSave={saveAccess} />
                  ) : (
                    <span className="muted">{m.is_owner ? 'owner: everything' : 'admin: everything'}</span>
                  )}
                  <RoleButton member={m} onChange={changeRole} />
                  {removable(m) && (
                    <ConfirmButton
                      label="Remove"
                      danger
                      question={
                        m.email === me?.member.email
                          ? `Remove yourself (${m.email}) from the organization? You will be signed out and need a new invitation to come back.`
                          : `Remove ${m.email} from the organization? Their sessions and invitation links stop working at once.`
                      }
                      confirmLabel="Remove member"
                      onConfirm={() => remove(m)}
                    />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <p className="muted">Owners and admins reach every phone and label; a member made admin and back keeps the access set for them.</p>
    </>
  );
}
