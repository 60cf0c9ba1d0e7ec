import { useMemo, useState, type FormEvent } from 'react';
import { api, errorText } from '../../api/client';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorNote } from '../../components/ErrorNote';
import { Field } from './Field';
import { WEEKDAYS, errorFor, fieldErrors, hoursText, otherErrors, scheduleBody, zones, type BusinessHours, type Weekday } from './sla-view';

const dayName = (d: Weekday) => d[0].toUpperCase() + d.slice(1);
const formOf = (h: BusinessHours | null, own: string) => ({
  time_zone: h?.time_zone ?? own,
  days: Object.fromEntries(WEEKDAYS.map((d) => [d, h ? hoursText(h.weekly[d]) : ''])) as Record<Weekday, string>,
  holidays: (h?.holidays ?? []).join(', '),
});

/**
 * The organization's business hours (GET/PUT/DELETE /v1/analytics/business-hours): time zone, local
 * hours per weekday (`09:00-17:00, 18:00-20:00`; empty: closed), holidays. Read-only for members and
 * for anyone limited to phones (the API refuses them).
 */
export function ScheduleSection(props: { hours: BusinessHours | null; editable: boolean; reload: (note: string) => Promise<void> }) {
  const own = useMemo(() => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC', []);
  const [form, setForm] = useState(() => formOf(props.hours, own));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ro = !props.editable;
  const call = async (change: () => Promise<string>) => {
    setBusy(true);
    setErrors({});
    setFailure(null);
    try {
      await props.reload(await change());
    } catch (err) {
      const fields = fieldErrors(err);
      setErrors(fields);
      const rest = otherErrors(fields, ['time_zone', 'holidays', ...WEEKDAYS.map((d) => `weekly.${d}`)]);
      setFailure(Object.keys(fields).length ? rest.join('; ') || null : errorText(err));
    } finally {
      setBusy(false);
    }
  };
  const save = (e: FormEvent) => {
    e.preventDefault();
    void call(async () => {
      await api('PUT', '/analytics/business-hours', { body: scheduleBody(form) });
      return 'Business hours saved.';
    });
  };
  return (
    <section className="section" aria-labelledby="sla-hours">
      <h2 id="sla-hours">Business hours</h2>
      <p className="muted" data-testid="schedule-state">
        {props.hours
          ? `Deadlines count only the hours below (${props.hours.time_zone}); set ${new Date(props.hours.updated_at).toLocaleString()}.`
          : 'No schedule: deadlines count every hour of every day.'}
      </p>
      <form noValidate aria-label="Business hours" onSubmit={save}>
        <div className="row">
          <Field label="Time zone" error={errorFor(errors, 'time_zone')}>
            <select value={form.time_zone} disabled={ro} onChange={(e) => setForm({ ...form, time_zone: e.target.value })}>
              {(zones(own).includes(form.time_zone) ? zones(own) : [form.time_zone, ...zones(own)]).map((z) => (
                <option key={z} value={z}>
                  {z}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <div className="row">
          {WEEKDAYS.map((d) => (
            <Field key={d} label={dayName(d)} error={errorFor(errors, `weekly.${d}`)}>
              <input
                value={form.days[d]}
                readOnly={ro}
                placeholder={ro ? 'closed' : 'closed, or 09:00-17:00'}
                onChange={(e) => setForm({ ...form, days: { ...form.days, [d]: e.target.value } })}
              />
            </Field>
          ))}
        </div>
        <div className="row">
          <Field label="Holidays" hint="Local dates YYYY-MM-DD, separated by commas" error={errorFor(errors, 'holidays')}>
            <input value={form.holidays} readOnly={ro} onChange={(e) => setForm({ ...form, holidays: e.target.value })} />
          </Field>
        </div>
        <ErrorNote error={failure} />
        {props.editable ? (
          <div className="row">
            <button type="submit" disabled={busy}>
              Save business hours
            </button>
            {props.hours && (
              <ConfirmButton
                label="Remove schedule"
                question="Remove the business hours? Deadlines armed from now on count every hour of every day."
                confirmLabel="Remove"
                danger
                onConfirm={() =>
                  call(async () => {
                    await api('DELETE', '/analytics/business-hours');
                    setForm(formOf(null, own));
                    return 'Business hours removed.';
                  })
                }
              />
            )}
          </div>
        ) : (
          <p className="muted">Only owners and admins of the whole organization change the business hours.</p>
        )}
      </form>
    </section>
  );
}
