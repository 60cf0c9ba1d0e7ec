import { useState, type FormEvent } from 'react';
import { api } from '../../api/client';
import type { Task } from '../../api/types';
import { ErrorNote, StatusNote } from '../../components/ErrorNote';
import { ShowFilter } from '../../components/ShowFilter';
import { TableHead } from '../../components/TableHead';
import { useListing } from '../../components/use-listing';
import { PRIORITIES, TASK_STATUSES, TASK_STATUS_TEXT, aboutText, taskBody, tasksPath } from './tasks-view';
import { TableScroll } from '../../components/TableScroll';

const field = (data: FormData, name: string) => String(data.get(name) ?? '');

/** The team's tasks (GET /v1/tasks, by status): a new one (a to-do or on a chat), and each one's status changed in place. */
export function TasksPage() {
  const [status, setStatus] = useState('');
  const { items: tasks, error, note, act } = useListing<Task, { tasks: Task[] }>(tasksPath(status), (a: { tasks: Task[] }) => a.tasks);
  const create = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    return act(async () => {
      const task = await api<Task>('POST', '/tasks/create', {
        body: taskBody({
          title: field(data, 'title'),
          chat: field(data, 'chat'),
          assignee: field(data, 'assignee'),
          due: field(data, 'due'),
          priority: field(data, 'priority'),
        }),
      });
      form.reset();
      return `Task "${task.title}" created.`;
    });
  };
  const setTaskStatus = (t: Task, next: string) =>
    act(async () => {
      await api('PATCH', `/tasks/${t.task_id}`, { body: { status: next } });
      return `"${t.title}" is now ${TASK_STATUS_TEXT[next]}.`;
    }, `Status of "${t.title}": `);
  return (
    <>
      <form className="row" onSubmit={(e) => void create(e)} aria-label="New task">
        <label>
          Title
          <input name="title" required maxLength={500} />
        </label>
        <label>
          Chat (optional: number or chat id)
          <input name="chat" placeholder="447700900123" />
        </label>
        <label>
          Assignee (optional)
          <input name="assignee" type="email" />
        </label>
        <label>
          Due (optional)
          <input name="due" type="date" />
        </label>
        <label>
          Priority
          <select name="priority" defaultValue="1">
            {PRIORITIES.map(([n, text]) => (
              <option key={n} value={n}>
                {text}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Create task</button>
      </form>
      <ErrorNote error={error} />
      <StatusNote note={note} />
      <ShowFilter
        value={status}
        onChange={setStatus}
        every="every status"
        options={TASK_STATUSES.map((s) => ({ value: s, text: TASK_STATUS_TEXT[s] }))}
      />
      {tasks === null && !error && <p role="status">Loading tasks…</p>}
      {tasks?.length === 0 && <p>No tasks.</p>}
      {tasks && tasks.length > 0 && (
        <TableScroll label="Tasks (scrolls sideways)">
          <table className="table">
            <caption>Tasks</caption>
            <TableHead columns={['Title', 'About', 'Assignee', 'Due', 'Priority', 'Status']} />
            <tbody>
              {tasks.map((t) => (
                <tr key={t.task_id} data-task-id={t.task_id}>
                  <td>{t.title}</td>
                  <td>{aboutText(t)}</td>
                  <td>{t.assignee ?? '—'}</td>
                  <td>{t.due_date ? new Date(t.due_date).toLocaleDateString() : '—'}</td>
                  <td>{PRIORITIES.find(([n]) => n === t.priority)?.[1] ?? t.priority}</td>
                  <td>
                    <select
                      aria-label={`Status of ${t.title}`}
                      value={t.status}
                      onChange={(e) => void setTaskStatus(t, e.currentTarget.value)}
                    >
                      {TASK_STATUSES.map((s) => (
                        <option key={s} value={s}>
                          {TASK_STATUS_TEXT[s]}
                        </option>
                      ))}
                    </select>
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
