import { useCallback, useEffect, useState } from 'react';
import { api, errorText } from '../../api/client';
import type { Label, Phone } from '../../api/types';
import { useSession } from '../../app/session';
import { ErrorNote, StatusNote } from '../../components/ErrorNote';
import { PoliciesSection } from './PoliciesSection';
import { ScheduleSection } from './ScheduleSection';
import { editRights, type BusinessHours, type SlaPolicy } from './sla-view';

interface Loaded {
  policies: SlaPolicy[];
  hours: BusinessHours | null;
}

/**
 * SLA (issue 34 item 4): the organization's SLA policies and its business hours, both on the
 * analytics service's routes. Everyone reads them; owners and admins change them (the routes are
 * `role: 'admin'`, and the schedule is refused to a member limited to phones), others see them read-only.
 */
export function SlaPage() {
  const { me } = useSession();
  const rights = editRights(me);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [labels, setLabels] = useState<Label[]>([]);
  const [phones, setPhones] = useState<Phone[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const load = useCallback(async () => {
    const [p, h] = await Promise.all([
      api<{ policies: SlaPolicy[] }>('GET', '/analytics/sla-policies'),
      api<{ business_hours: BusinessHours | null }>('GET', '/analytics/business-hours'),
    ]);
    setLoaded({ policies: p.policies, hours: h.business_hours });
  }, []);
  useEffect(() => {
    load().catch((err) => setError(errorText(err)));
    api<{ labels: Label[] }>('GET', '/labels?limit=500&type=chat').then(
      (a) => setLabels(a.labels),
      () => undefined,
    );
    api<Phone[]>('GET', '/phones/all').then(setPhones, () => undefined);
  }, [load]);
  const reload = async (done: string) => {
    setError(null);
    await load();
    setNote(done);
  };
  const act = async (change: () => Promise<string>) => {
    setError(null);
    setNote(null);
    try {
      await reload(await change());
    } catch (err) {
      setError(errorText(err));
    }
  };
  return (
    <>
      <ErrorNote error={error} />
      <StatusNote note={note} />
      {!loaded && !error && <p role="status">Loading the SLA policies…</p>}
      {loaded && (
        <>
          <PoliciesSection
            policies={loaded.policies}
            labels={labels}
            phones={phones}
            editable={rights.policies}
            phoneIds={me?.phone_ids ?? null}
            reload={reload}
            act={act}
          />
          <ScheduleSection key={loaded.hours?.updated_at ?? 'none'} hours={loaded.hours} editable={rights.schedule} reload={reload} />
        </>
      )}
    </>
  );
}
