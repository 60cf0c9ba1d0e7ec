import { useEffect, useRef, useState } from 'react';
import { io, type Socket } from 'socket.io-client';

/**
 * The realtime socket of this origin (the gateway's socket.io, reached at /v1/socket.io so the
 * session cookie goes with the handshake). One per page, opened on first use.
 */
let socket: Socket | null = null;

function getSocket(): Socket {
  socket ??= io({ path: '/v1/socket.io', transports: ['websocket', 'polling'], withCredentials: true });
  return socket;
}

export function closeRealtime(): void {
  socket?.close();
  socket = null;
}

/** Calls `handler(name, data)` for each of these events while mounted. */
export function useRealtimeEvents(names: readonly string[], handler: (name: string, data: unknown) => void): void {
  const latest = useRef(handler);
  latest.current = handler;
  const key = names.join(',');
  useEffect(() => {
    const s = getSocket();
    const listener = (name: string, data: unknown) => {
      if (key.split(',').includes(name)) latest.current(name, data);
    };
    s.onAny(listener);
    return () => void s.offAny(listener);
  }, [key]);
}

/** Whether the socket is connected now; `onConnect` runs at each (re)connection, to catch up by reading again. */
export function useRealtimeConnected(onConnect?: () => void): boolean {
  const [connected, setConnected] = useState(() => getSocket().connected);
  const latest = useRef(onConnect);
  latest.current = onConnect;
  useEffect(() => {
    const s = getSocket();
    const up = () => {
      setConnected(true);
      latest.current?.();
    };
    const down = () => setConnected(false);
    s.on('connect', up);
    s.on('disconnect', down);
    s.on('connect_error', down);
    setConnected(s.connected);
    return () => {
      s.off('connect', up);
      s.off('disconnect', down);
      s.off('connect_error', down);
    };
  }, []);
  return connected;
}
