/** A 127.0.0.1 port nothing listens on (bound by the OS, then released): a refused connection without network. */
import { connect, createServer } from 'node:net';

export async function refusingPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

/** Whether nothing answers on 127.0.0.1:`port` any more (a server that was stopped has let its port go). */
export function portIsClosed(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}
