// Worker entry: TypeScript sources are loaded through tsx inside the worker thread as well.
import { register } from 'tsx/esm/api';

register();
await import('./backfill-worker.ts');
