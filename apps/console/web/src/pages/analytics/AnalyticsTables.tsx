import { TableHead } from '../../components/TableHead';
import { TableScroll } from '../../components/TableScroll';
import { AnalyticsChart } from './AnalyticsChart';
import { CsvButton } from './CsvButton';
import {
  bucketLabel,
  duration,
  messageTotals,
  teamRow,
  ticketTotals,
  type MessageMetrics,
  type TeamMetrics,
  type TicketMetrics,
} from './analytics-view';

/** Figures as a row of labelled counts (the queue page's look); `data-figure` names each for tests and styles. */
function Figures({ label, items }: { label: string; items: [string, string][] }) {
  return (
    <dl className="counts" aria-label={label}>
      {items.map(([name, value]) => (
        <div key={name}>
          <dt>{name}</dt>
          <dd data-figure={name}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A section's heading with its CSV download beside it. */
function Heading({ id, text, csv, what, file }: { id: string; text: string; csv: string; what: string; file: string }) {
  return (
    <div className="row spread">
      <h2 id={id}>{text}</h2>
      <CsvButton path={csv} what={what} fallbackName={file} />
    </div>
  );
}

/** The message figures; `query` is their own (interval and label included), which the CSV asks again. */
export function MessagesSection({ metrics, query }: { metrics: MessageMetrics; query: string }) {
  const per = metrics.interval === 'hour' ? 'hour' : 'day';
  return (
    <section className="section" aria-labelledby="messages-h" data-testid="messages-section">
      <Heading id="messages-h" text="Messages" csv={`/analytics/messages?${query}`} what="messages" file="analytics-messages.csv" />
      <p className="muted" data-testid="period">
        From {new Date(metrics.from).toLocaleString(undefined, { timeZone: metrics.tz })} until{' '}
        {new Date(metrics.to).toLocaleString(undefined, { timeZone: metrics.tz })} ({metrics.tz})
        {metrics.label ? `, chats labelled ${metrics.label}` : ''}
      </p>
      <Figures label="Message totals" items={messageTotals(metrics.totals)} />
      <AnalyticsChart series={metrics.series} interval={metrics.interval} tz={metrics.tz} />
      <TableScroll label={`Messages per ${per} (scrolls sideways)`}>
        <table className="table">
          <caption>Per {per}</caption>
          <TableHead
            columns={[
              per === 'hour' ? 'Hour' : 'Day',
              'Active chats',
              'Incoming',
              'Outgoing',
              'Flagged',
              'First responses',
              'First response median',
            ]}
          />
          <tbody>
            {metrics.series.map((b) => (
              <tr key={b.bucket} data-bucket={b.bucket}>
                <td>{bucketLabel(b.bucket, metrics.interval)}</td>
                <td>{b.active_chats}</td>
                <td>{b.incoming}</td>
                <td>{b.outgoing}</td>
                <td>{b.flagged}</td>
                <td>{b.first_responses}</td>
                <td>{duration(b.first_response_median_ms)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </section>
  );
}

export function TicketsSection({ metrics, query }: { metrics: TicketMetrics; query: string }) {
  return (
    <section className="section" aria-labelledby="tickets-h" data-testid="tickets-section">
      <Heading id="tickets-h" text="Tickets" csv={`/analytics/tickets?${query}`} what="tickets" file="analytics-tickets.csv" />
      <Figures label="Ticket totals" items={ticketTotals(metrics.totals)} />
      {metrics.by_assignee.length === 0 ? (
        <p>No tickets in this period.</p>
      ) : (
        <TableScroll label="Tickets per assignee (scrolls sideways)">
          <table className="table">
            <caption>Per assignee</caption>
            <TableHead columns={['Assignee', 'Unresolved', 'Open', 'In progress', 'Raised', 'Closed', 'To first assignment', 'To close']} />
            <tbody>
              {metrics.by_assignee.map((r) => (
                <tr key={r.assignee ?? ''} data-assignee={r.assignee ?? ''}>
                  <td>{r.assignee ?? 'unassigned'}</td>
                  <td>{r.unresolved}</td>
                  <td>{r.open}</td>
                  <td>{r.in_progress}</td>
                  <td>{r.created}</td>
                  <td>{r.closed}</td>
                  <td>{duration(r.time_to_first_assignment_ms.median)}</td>
                  <td>{duration(r.time_to_close_ms.median)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}

export function TeamSection({ metrics, query }: { metrics: TeamMetrics; query: string }) {
  return (
    <section className="section" aria-labelledby="team-h" data-testid="team-section">
      <Heading id="team-h" text="Team" csv={`/analytics/team?${query}`} what="team" file="analytics-team.csv" />
      {metrics.members.length === 0 ? (
        <p>No member sent messages or had tickets in this period.</p>
      ) : (
        <TableScroll label="Team (scrolls sideways)">
          <table className="table">
            <caption>Per member, most messages sent first</caption>
            <TableHead
              columns={[
                'Member',
                'Messages sent',
                'Active chats',
                'First response median',
                'First responses',
                'Next response median',
                'Next responses',
                'Tickets closed',
                'Tickets unresolved',
              ]}
            />
            <tbody>
              {metrics.members.map((m) => (
                <tr key={m.member} data-member={m.member} title={m.name ? `API token ${m.member}` : undefined}>
                  {teamRow(m).map((cell, i) => (
                    <td key={i}>{cell}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}
