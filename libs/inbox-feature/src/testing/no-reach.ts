import type { ChatReachCheck } from '../member-reach';

/** For callers that are not members: their reach is phones only, so asking the chats service is a bug. */
export const noReach: ChatReachCheck = {
  reached: async () => {
    throw new Error('the chats service was asked about the reach of a caller that is not a member');
  },
};
