import { EVENT_NAMES as CONTRACT_EVENT_NAMES } from '@mapi/contracts';
import { EVENT_NAMES } from './event-names';

describe('console: webhook event names', () => {
  it("are exactly the contracts' catalogue (a new event shows in the webhooks page)", () => {
    expect([...EVENT_NAMES]).toEqual([...CONTRACT_EVENT_NAMES]);
  });
});
