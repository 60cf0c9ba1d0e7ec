import { useId, useRef, useState, type FormEvent } from 'react';
import { digits, type Member, type Phone } from '../../api/types';
import { accessBody, accessFormOf, phoneRef, type AccessForm } from './members-view';

/**
 * "Edit access" of one member (role member): a modal dialog (native <dialog>, Escape cancels) with
 * every phone or only the ticked ones, every label or only the names typed. Saving hands the
 * PATCH /v1/members/access body to `onSave`; the dialog closes when that succeeds.
 */
export function AccessDialog({
  member,
  phones,
  onSave,
}: {
  member: Member;
  phones: Phone[];
  onSave: (body: ReturnType<typeof accessBody>) => Promise<boolean>;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [form, setForm] = useState<AccessForm>(() => accessFormOf(member, phones));
  const [busy, setBusy] = useState(false);
  const titleId = useId();
  const open = () => {
    setForm(accessFormOf(member, phones));
    dialog.current?.showModal();
  };
  const save = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setBusy(true);
    try {
      if (await onSave(accessBody(member.email, form))) dialog.current?.close();
    } finally {
      setBusy(false);
    }
  };
  const tick = (ref: string, on: boolean) =>
    setForm((f) => ({ ...f, phones: on ? [...f.phones, ref] : f.phones.filter((p) => p !== ref) }));
  return (
    <>
      <button type="button" className="secondary" onClick={open}>
        Edit access
      </button>
      <dialog ref={dialog} className="confirm" aria-labelledby={titleId}>
        <form className="stack" onSubmit={(e) => void save(e)}>
          <h2 id={titleId}>Access of {member.email}</h2>
          <fieldset>
            <legend>Phones</legend>
            <label className="check">
              <input type="radio" name="phones" checked={form.allPhones} onChange={() => setForm((f) => ({ ...f, allPhones: true }))} />
              Every phone (and phones added later)
            </label>
            <label className="check">
              <input type="radio" name="phones" checked={!form.allPhones} onChange={() => setForm((f) => ({ ...f, allPhones: false }))} />
              Only these phones
            </label>
            {phones.map((p) => {
              const ref = phoneRef(p);
              return (
                <label key={p.phone_id} className="check indent">
                  <input
                    type="checkbox"
                    disabled={form.allPhones}
                    checked={!form.allPhones && form.phones.includes(ref)}
                    onChange={(e) => tick(ref, e.currentTarget.checked)}
                  />
                  {p.phone_name ? `${p.phone_name} ` : ''}
                  {p.org_phone ? `+${digits(p.org_phone)}` : `(no number yet: ${p.phone_id})`}
                </label>
              );
            })}
          </fieldset>
          <fieldset>
            <legend>Labels</legend>
            <label className="check">
              <input type="radio" name="labels" checked={form.allLabels} onChange={() => setForm((f) => ({ ...f, allLabels: true }))} />
              Every label
            </label>
            <label className="check">
              <input type="radio" name="labels" checked={!form.allLabels} onChange={() => setForm((f) => ({ ...f, allLabels: false }))} />
              Only these labels
            </label>
            <label>
              Label names, separated by commas
              <input value={form.labels} disabled={form.allLabels} onChange={(e) => setForm({ ...form, labels: e.currentTarget.value })} />
            </label>
          </fieldset>
          <div className="row">
            <button type="button" className="secondary" onClick={() => dialog.current?.close()}>
              Cancel
            </button>
            <button type="submit" disabled={busy}>
              Save access
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
