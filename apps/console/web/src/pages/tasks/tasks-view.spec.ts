import { aboutText, chatIdOf, taskBody, tasksPath } from './tasks-view';

describe('the tasks page', () => {
  it('filters by status only when one is chosen', () => {
    expect(tasksPath('')).toBe('/tasks?limit=200');
    expect(tasksPath('inprogress')).toBe('/tasks?limit=200&status=inprogress');
  });

  it('takes a chat as a number with punctuation or as a chat id', () => {
    expect(chatIdOf('+44 7700-900123')).toBe('447700900123@c.us');
    expect(chatIdOf('120363@g.us')).toBe('120363@g.us');
  });

  it('builds the create body: a todo without a chat, the optional fields only when given', () => {
    expect(taskBody({ title: ' Call back ', chat: '', assignee: '', due: '', priority: '' })).toEqual({ title: 'Call back', priority: 1 });
    expect(taskBody({ title: 'Refund', chat: '447700900123', assignee: ' Amy@Example.com ', due: '2026-12-01', priority: '3' })).toEqual({
      title: 'Refund',
      priority: 3,
      association: { chat_id: '447700900123@c.us' },
      assignee: 'amy@example.com',
      due_date: '2026-12-01T23:59:59Z',
    });
  });

  it('says what a task is about', () => {
    expect(aboutText({ type: 'todo', association: null })).toBe('to-do');
    expect(aboutText({ type: 'chat', association: { chat_id: '1@c.us' } })).toBe('chat 1@c.us');
    expect(aboutText({ type: 'message', association: { chat_id: '1@c.us', message_id: 'm' } })).toBe('message in 1@c.us');
    expect(aboutText({ type: 'ticket', association: { ticket_id: 't' } })).toBe('ticket t');
  });
});
