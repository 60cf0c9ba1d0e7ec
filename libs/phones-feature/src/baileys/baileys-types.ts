// Types that the connector's dependencies, the history fetcher and the session-state store all name:
// here, below the three, so that none imports another for a type.
import type { AuthenticationState, WAMessage, WAMessageKey, WASocket } from 'baileys';

/** The socket surface this connector uses: the library's socket, or a fake one in tests. */
export type BaileysSocket = Pick<
  WASocket,
  | 'ev'
  | 'user'
  | 'sendMessage'
  | 'groupParticipantsUpdate'
  | 'groupMetadata'
  | 'groupFetchAllParticipating'
  | 'fetchMessageHistory'
  | 'resyncAppState'
  | 'logout'
  | 'end'
  | 'requestPairingCode'
  | 'updateMediaMessage'
  | 'groupCreate'
  | 'groupRevokeInvite'
  | 'groupUpdateSubject'
  | 'groupUpdateDescription'
  | 'groupSettingUpdate'
  | 'groupMemberAddMode'
  | 'groupAcceptInvite'
  | 'groupLeave'
>;

export type SocketFactory = (auth: AuthenticationState, getMessage: (id: string) => WAMessage | undefined) => BaileysSocket;

/** A chat's oldest message seen by the session: the anchor of its next history request. */
export interface HistoryAnchor {
  chat_id: string;
  key: WAMessageKey;
  /** the message's time, epoch ms */
  ms: number;
}

export interface LidPair {
  lid: string;
  pn: string;
}

/** What a Baileys session learned that is not auth state, kept so it survives a lease takeover. */
export interface SessionState {
  lids: LidPair[];
  anchors: HistoryAnchor[];
}
