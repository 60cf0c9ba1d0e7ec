import { useState, type FormEvent } from 'react';
import { errorText } from '../../api/client';
import type { Label, Phone } from '../../api/types';
import { ErrorNote } from '../../components/ErrorNote';
import { phoneLabel } from '../../components/PhonePicker';
import { Field } from './Field';
import { SLA_KINDS, errorFor, fieldErrors, formOf, otherErrors, type PolicyForm as Form, type SlaPolicy } from './sla-view';

const FIELDS = ['name', 'kind', 'minutes', 'label_id', 'phone_id', 'enabled'];

/**
 * A policy's form (new, or an existing one's edit). The browser's own checks are off (`noValidate`):
 * the API validates, and its 422 messages are shown next to the fields they name.
 */
export function PolicyForm(props: {
  policy: SlaPolicy | null;
  labels: Label[];
  phones: Phone[];
  /** The member is limited to these phones: no "every phone" choice. */
  phoneIds: string[] | null;
  onSave: (form: Form) => Promise<void>;
  onCancel?: () => void;
}) {
  const [form, setForm] = useState<Form>(() => formOf(props.policy));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (k: keyof Form) => (e: { target: HTMLInputElement | HTMLSelectElement }) =>
    setForm({ ...form, [k]: k === 'enabled' ? (e.target as HTMLInputElement).checked : e.target.value });
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setErrors({});
    setFailure(null);
    try {
      await props.onSave(form);
      if (!props.policy) setForm(formOf(null));
    } catch (err) {
      const fields = fieldErrors(err);
      setErrors(fields);
      const rest = otherErrors(fields, FIELDS);
      setFailure(Object.keys(fields).length ? (rest.length ? rest.join('; ') : null) : errorText(err));
    } finally {
      setBusy(false);
    }
  };
  const phones = props.phoneIds ? props.phones.filter((p) => props.phoneIds?.includes(p.phone_id)) : props.phones;
  const title = props.policy ? `Edit policy ${props.policy.name}` : 'New SLA policy';
  return (
    <form className="row" noValidate aria-label={title} onSubmit={(e) => void submit(e)}>
      <Field label="Name" error={errorFor(errors, 'name')}>
        <input value={form.name} onChange={set('name')} maxLength={200} placeholder="VIP first reply" />
      </Field>
      <Field label="Kind" error={errorFor(errors, 'kind')}>
        <select value={form.kind} onChange={set('kind')}>
          {SLA_KINDS.map(([v, text]) => (
            <option key={v} value={v}>
              {text}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Within (minutes)" error={errorFor(errors, 'minutes')}>
        <input type="text" inputMode="numeric" value={form.minutes} onChange={set('minutes')} placeholder="30" />
      </Field>
      <Field label="Only chats with label" error={errorFor(errors, 'label_id')}>
        <select value={form.label_id} onChange={set('label_id')}>
          <option value="">Any label</option>
          {props.labels.map((l) => (
            <option key={l.label_id} value={l.label_id}>
              {l.name}
            </option>
          ))}
          {form.label_id && !props.labels.some((l) => l.label_id === form.label_id) && (
            <option value={form.label_id}>{form.label_id}</option>
          )}
        </select>
      </Field>
      <Field label="Only phone" error={errorFor(errors, 'phone_id')}>
        <select value={form.phone_id} onChange={set('phone_id')}>
          {!props.phoneIds && <option value="">Every phone</option>}
          {props.phoneIds && !form.phone_id && <option value="">Choose a phone</option>}
          {phones.map((p) => (
            <option key={p.phone_id} value={p.phone_id}>
              {phoneLabel(p)}
            </option>
          ))}
        </select>
      </Field>
      <label className="check">
        <input type="checkbox" checked={form.enabled} onChange={set('enabled')} />
        Enabled
      </label>
      <button type="submit" disabled={busy}>
        {props.policy ? 'Save policy' : 'Add policy'}
      </button>
      {props.onCancel && (
        <button type="button" className="secondary" onClick={props.onCancel}>
          Cancel
        </button>
      )}
      <ErrorNote error={failure} />
    </form>
  );
}
