import { CANNOT_ANSWER, buildMessages, parseAnswer } from './agent-prompt';

describe('buildMessages', () => {
  it('numbers the entries in the system prompt, adds the instructions, and keeps the customer message as the user turn', () => {
    const [system, user] = buildMessages(
      [
        { question: 'Opening hours?', answer: '9 to 5' },
        { question: 'Refunds?', answer: 'Within 30 days' },
      ],
      'when are you open',
      'Sign as Ada.',
    );
    expect(system.role).toBe('system');
    expect(system.content).toContain('[1] Q: Opening hours?\nA: 9 to 5');
    expect(system.content).toContain('[2] Q: Refunds?\nA: Within 30 days');
    expect(system.content).toContain(`reply with exactly ${CANNOT_ANSWER}`);
    expect(system.content).toContain('SOURCES:');
    expect(system.content).toContain('Sign as Ada.');
    expect(user).toEqual({ role: 'user', content: 'when are you open' });
    expect(buildMessages([], 'x', '  ')[0].content).not.toContain('Instructions from the organization');
  });
});

describe('parseAnswer', () => {
  it('reads the answer and its sources, dropping the SOURCES line and inline markers', () => {
    expect(parseAnswer('We are open 9 to 5 [1].\nSOURCES: 1', 2)).toEqual({ kind: 'answer', text: 'We are open 9 to 5.', sources: [1] });
    expect(parseAnswer('Line one.\nLine two.\n\n**Sources:** 2, 1, 2', 2)).toEqual({
      kind: 'answer',
      text: 'Line one.\nLine two.',
      sources: [2, 1],
    });
    expect(parseAnswer('Yes.\nSource: [1]', 1)).toEqual({ kind: 'answer', text: 'Yes.', sources: [1] });
  });

  it('drops reasoning blocks', () => {
    expect(parseAnswer('<think>the user asks… maybe CANNOT_ANSWER? no</think>\nOpen at 9.\nSOURCES: 1', 1)).toEqual({
      kind: 'answer',
      text: 'Open at 9.',
      sources: [1],
    });
  });

  it('hands over on CANNOT_ANSWER anywhere, an empty answer, no sources, or sources naming no given entry', () => {
    expect(parseAnswer('CANNOT_ANSWER', 3)).toEqual({ kind: 'cannot_answer', reason: expect.stringMatching(/does not answer/) });
    expect(parseAnswer('Sorry. cannot_answer\nSOURCES: 1', 3).kind).toBe('cannot_answer');
    expect(parseAnswer('   ', 3)).toEqual({ kind: 'cannot_answer', reason: 'the model answered nothing' });
    expect(parseAnswer('We ship worldwide.', 3)).toEqual({ kind: 'cannot_answer', reason: expect.stringMatching(/no SOURCES line/) });
    expect(parseAnswer('We ship worldwide.\nSOURCES: 4, 0', 3)).toEqual({
      kind: 'cannot_answer',
      reason: 'the model cited no entry it was given (SOURCES: 4, 0)',
    });
    expect(parseAnswer('We ship worldwide.\nSOURCES: none', 3)).toEqual({
      kind: 'cannot_answer',
      reason: 'the model cited no entry it was given (SOURCES: none)',
    });
    expect(parseAnswer('SOURCES: 1', 3)).toEqual({ kind: 'cannot_answer', reason: 'the model gave sources but no answer' });
  });

  it('takes the last SOURCES line when the answer mentions sources earlier', () => {
    expect(parseAnswer('Sources: our warehouse in Lyon ships daily.\nSOURCES: 1', 1)).toEqual({
      kind: 'answer',
      text: 'Sources: our warehouse in Lyon ships daily.',
      sources: [1],
    });
  });
});
