import { labelBody, labelsPath } from './labels-view';

describe('the labels page', () => {
  it('lists one type or every type', () => {
    expect(labelsPath('')).toBe('/labels?limit=500');
    expect(labelsPath('ticket')).toBe('/labels?limit=500&type=ticket');
  });

  it('sends the trimmed name, the colour in lower case and chat by default', () => {
    expect(labelBody({ name: '  VIP ', color: '#1E88E5', type: '' })).toEqual({ name: 'VIP', color: '#1e88e5', type: 'chat' });
  });
});
