// A Socket.IO client as the benchmarks open them: WebSocket only, no reconnection, its own
// connection; resolves once connected, rejects when refused.
import { io } from 'socket.io-client';

export function connect(url, namespace, token) {
  const socket = io(`${url}${namespace}`, {
    auth: { token },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}
