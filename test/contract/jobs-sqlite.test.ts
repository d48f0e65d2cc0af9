import path from 'node:path';
import { createSqliteJobStore } from '../../src/jobs/sqlite-store.ts';
import { tempDir } from '../support/fixtures.ts';
import { jobStoreContract } from './jobs.contract.ts';

const file = path.join(tempDir('partsearch-jobs-'), 'jobs.db');

jobStoreContract('sqlite', async () => createSqliteJobStore({ file }));
