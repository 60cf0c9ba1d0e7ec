import type { ChatLabels, UnreadChats } from '../scope';
import type { TokenNames } from '../usecases/team-metrics/team-metrics.usecase';

/** For tests that ask no label: a label check would be a mistake of the test. */
export const noLabelAsked: ChatLabels = async () => {
  throw new Error('no label was asked in this test');
};

/** For tests of other figures: the chats service's count of unread chats, as a phone with none read would answer. */
export const noUnreadChats: UnreadChats = async () => 0;

/** For tests whose senders are emails or unknown tokens: the members service knows no token name. */
export const noTokenNames: TokenNames = async () => new Map();
