import { useState } from 'react';
import { api } from '../../api/client';
import type { Label, Phone } from '../../api/types';
import { ConfirmButton } from '../../components/ConfirmButton';
import { phoneLabel } from '../../components/PhonePicker';
import { TableHead } from '../../components/TableHead';
import { TableScroll } from '../../components/TableScroll';
import { PolicyForm } from './PolicyForm';
import { kindText, minutesText, policyBody, policyPatch, type SlaPolicy } from './sla-view';

/**
 * The SLA policies (GET /v1/analytics/sla-policies), oldest first; owners and admins add one, edit
 * one in place (PATCH, the changed fields only) and delete one after a confirmation.
 */
export function PoliciesSection(props: {
  policies: SlaPolicy[];
  labels: Label[];
  phones: Phone[];
  editable: boolean;
  phoneIds: string[] | null;
  /** Runs a change and reloads; shows what it says (errors of edits stay in their form). */
  reload: (note: string) => Promise<void>;
  act: (change: () => Promise<string>) => Promise<void>;
}) {
  const [editing, setEditing] = useState<string | null>(null);
  const labelName = (id: string | null) => (id === null ? 'any' : (props.labels.find((l) => l.label_id === id)?.name ?? id));
  const phoneName = (id: string | null) => {
    const p = id === null ? null : props.phones.find((x) => x.phone_id === id);
    return id === null ? 'every phone' : p ? phoneLabel(p) : id;
  };
  const mayChange = (p: SlaPolicy) =>
    props.editable && (props.phoneIds === null || (p.phone_id !== null && props.phoneIds.includes(p.phone_id)));
  return (
    <section className="section" aria-labelledby="sla-policies">
      <h2 id="sla-policies">Policies</h2>
      <p className="muted">
        A deadline starts with a customer&apos;s message and ends with the team&apos;s reply; past it, <code>sla.breached</code> fires once
        (webhooks, realtime, workflows). Counted in business hours when a schedule is set below.
      </p>
      {props.policies.length === 0 ? (
        <p>No SLA policy yet.</p>
      ) : (
        <TableScroll label="SLA policies (scrolls sideways)">
          <table className="table">
            <caption>SLA policies, oldest first</caption>
            <TableHead columns={['Name', 'Kind', 'Within', 'Label', 'Phone', 'State', props.editable && 'Actions']} />
            <tbody>
              {props.policies.map((p) => (
                <tr key={p.policy_id} data-policy-id={p.policy_id}>
                  <td>{p.name}</td>
                  <td>{kindText(p.kind)}</td>
                  <td data-minutes={p.minutes}>{minutesText(p.minutes)}</td>
                  <td>{labelName(p.label_id)}</td>
                  <td>{phoneName(p.phone_id)}</td>
                  <td>{p.enabled ? 'enabled' : 'disabled'}</td>
                  {props.editable && (
                    <td>
                      {mayChange(p) && (
                        <div className="row">
                          <button
                            type="button"
                            className="secondary"
                            aria-label={`Edit ${p.name}`}
                            aria-expanded={editing === p.policy_id}
                            onClick={() => setEditing(editing === p.policy_id ? null : p.policy_id)}
                          >
                            Edit
                          </button>
                          <ConfirmButton
                            label={`Delete ${p.name}`}
                            question={`Delete the policy "${p.name}"? Its pending deadlines are dropped; none fires afterwards.`}
                            confirmLabel="Delete"
                            danger
                            onConfirm={() =>
                              props.act(async () => {
                                await api('DELETE', `/analytics/sla-policies/${p.policy_id}`);
                                if (editing === p.policy_id) setEditing(null);
                                return `Policy "${p.name}" deleted.`;
                              })
                            }
                          />
                        </div>
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {props.policies
        .filter((p) => p.policy_id === editing && mayChange(p))
        .map((p) => (
          <PolicyForm
            key={p.policy_id}
            policy={p}
            labels={props.labels}
            phones={props.phones}
            phoneIds={props.phoneIds}
            onCancel={() => setEditing(null)}
            onSave={async (form) => {
              const body = policyPatch(p, form);
              if (body) await api('PATCH', `/analytics/sla-policies/${p.policy_id}`, { body });
              setEditing(null);
              await props.reload(body ? `Policy "${form.name.trim()}" saved.` : 'Nothing to change.');
            }}
          />
        ))}
      {props.editable ? (
        <>
          <h3>New policy</h3>
          <PolicyForm
            policy={null}
            labels={props.labels}
            phones={props.phones}
            phoneIds={props.phoneIds}
            onSave={async (form) => {
              await api('POST', '/analytics/sla-policies', { body: policyBody(form) });
              await props.reload(`Policy "${form.name.trim()}" added.`);
            }}
          />
        </>
      ) : (
        <p className="muted" data-testid="sla-read-only">
          Only the organization&apos;s owners and admins change SLA policies.
        </p>
      )}
    </section>
  );
}
