/** A 127.0.0.1 port nothing listens on (bound by the OS, then released): a refused connection without network. */
import { createServer } from 'node:net';

export async function refusingPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}
