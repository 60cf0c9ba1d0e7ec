import { useEffect, useMemo, useRef, useState } from 'react';
import { api, errorText } from '../../api/client';
import type { Label, Phone } from '../../api/types';
import { ErrorNote } from '../../components/ErrorNote';
import { phoneLabel } from '../../components/PhonePicker';
import { MessagesSection, TeamSection, TicketsSection } from './AnalyticsTables';
import {
  PRESETS,
  addDays,
  browserZone,
  businessHoursNote,
  localDate,
  messagesQuery,
  metricsQuery,
  periodOf,
  type Interval,
  type MessageMetrics,
  type Preset,
  type TeamMetrics,
  type TicketMetrics,
} from './analytics-view';

interface Figures {
  /** The query these figures answer (their CSV asks the same). */
  query: string;
  /** The messages' own query (interval, label): their CSV asks the same. */
  messagesQuery: string;
  messages: MessageMetrics | null;
  tickets: TicketMetrics | null;
  team: TeamMetrics | null;
}

/** The zones the runtime knows, with the reader's own among them. */
function zones(own: string): string[] {
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return all.includes(own) ? all : [own, ...all];
}

/**
 * Analytics (GET /v1/analytics/messages, /tickets, /team): a period (today, 7 or 30 days, or dates),
 * a time zone (the reader's by default), a phone, a chat label (the message figures only) and day or hour
 * buckets; the totals, a chart of the series, the ticket and team tables, each with its CSV; a note when
 * response times count business hours.
 */
export function AnalyticsPage() {
  const own = useMemo(browserZone, []);
  const [preset, setPreset] = useState<Preset>('7d');
  const [tz, setTz] = useState(own);
  const [phoneId, setPhoneId] = useState('');
  const [label, setLabel] = useState('');
  const [labels, setLabels] = useState<Label[]>([]);
  const [interval, setBucket] = useState<Interval>('day');
  const today = localDate(new Date(), tz);
  const [custom, setCustom] = useState({ from: addDays(today, -6), to: today });
  const [phones, setPhones] = useState<Phone[]>([]);
  const [figures, setFigures] = useState<Figures>({ query: '', messagesQuery: '', messages: null, tickets: null, team: null });
  const [errors, setErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(true);
  const asked = useRef(0);
  const period = useMemo(() => periodOf(preset, tz, new Date(), custom), [preset, tz, custom]);
  const query = period ? metricsQuery(period, tz, phoneId) : null;

  useEffect(() => {
    api<Phone[]>('GET', '/phones/all').then(setPhones, () => undefined);
    api<{ labels: Label[] }>('GET', '/labels?type=chat&limit=500').then(
      (a) => setLabels(a.labels),
      () => undefined,
    );
  }, []);
  useEffect(() => {
    if (!query) return;
    const ofMessages = messagesQuery(query, interval, label);
    const n = ++asked.current;
    setBusy(true);
    const read = <T,>(path: string, what: string) =>
      api<T>('GET', path).then(
        (v) => ({ v, e: null }),
        (err) => ({ v: null, e: `${what}: ${errorText(err)}` }),
      );
    void Promise.all([
      read<MessageMetrics>(`/analytics/messages?${ofMessages}`, 'Messages'),
      read<TicketMetrics>(`/analytics/tickets?${query}`, 'Tickets'),
      read<TeamMetrics>(`/analytics/team?${query}`, 'Team'),
    ]).then(([m, t, team]) => {
      if (n !== asked.current) return; // a newer choice is under way
      setFigures({ query, messagesQuery: ofMessages, messages: m.v, tickets: t.v, team: team.v });
      setErrors([m.e, t.e, team.e].filter((e): e is string => e !== null));
      setBusy(false);
    });
  }, [query, interval, label]);

  const loaded = figures.messages || figures.tickets || figures.team;
  const hoursNote = businessHoursNote(figures.messages, figures.team);
  return (
    <>
      <form className="row" aria-label="Figures to show" onSubmit={(e) => e.preventDefault()}>
        <label>
          Period
          <select value={preset} onChange={(e) => setPreset(e.target.value as Preset)}>
            {PRESETS.map(([value, text]) => (
              <option key={value} value={value}>
                {text}
              </option>
            ))}
          </select>
        </label>
        {preset === 'custom' && (
          <>
            <label>
              From
              <input type="date" value={custom.from} max={custom.to} onChange={(e) => setCustom({ ...custom, from: e.target.value })} />
            </label>
            <label>
              To (included)
              <input type="date" value={custom.to} min={custom.from} onChange={(e) => setCustom({ ...custom, to: e.target.value })} />
            </label>
          </>
        )}
        <label>
          Time zone
          <select value={tz} onChange={(e) => setTz(e.target.value)}>
            {zones(own).map((z) => (
              <option key={z} value={z}>
                {z}
              </option>
            ))}
          </select>
        </label>
        <label>
          Phone
          <select value={phoneId} onChange={(e) => setPhoneId(e.target.value)}>
            <option value="">All phones</option>
            {phones.map((p) => (
              <option key={p.phone_id} value={p.phone_id}>
                {phoneLabel(p)}
              </option>
            ))}
          </select>
        </label>
        <label>
          Label (messages)
          <select value={label} onChange={(e) => setLabel(e.target.value)}>
            <option value="">All chats</option>
            {labels.map((l) => (
              <option key={l.label_id} value={l.name}>
                {l.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Buckets
          <select value={interval} onChange={(e) => setBucket(e.target.value as Interval)}>
            <option value="day">per day</option>
            <option value="hour">per hour</option>
          </select>
        </label>
      </form>
      {!period && <p className="error">Choose a first date on or before the last one.</p>}
      {errors.map((e) => (
        <ErrorNote key={e} error={e} />
      ))}
      {!loaded && busy && period && <p role="status">Loading figures…</p>}
      {hoursNote && (
        <p className="muted" data-testid="business-hours-note">
          {hoursNote}
        </p>
      )}
      <div aria-busy={busy} data-testid="figures">
        {figures.messages && <MessagesSection metrics={figures.messages} query={figures.messagesQuery} />}
        {figures.tickets && <TicketsSection metrics={figures.tickets} query={figures.query} />}
        {figures.team && <TeamSection metrics={figures.team} query={figures.query} />}
      </div>
    </>
  );
}
