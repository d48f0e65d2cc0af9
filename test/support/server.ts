/** Starts the real HTTP app on a loopback port over given services; returns its base URL. */
import type { Server } from 'node:http';
import { createApp } from '../../src/http/app.ts';
import type { AppServices } from '../../src/service/app-services.ts';

export async function startServer(s: AppServices): Promise<{ url: string; close: () => Promise<void> }> {
  const app = createApp(s);
  const server: Server = await new Promise((resolve) => {
    const srv = app.listen(0, '127.0.0.1', () => resolve(srv));
  });
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
