import { createOpenSearchEngine } from '../../src/engines/opensearch/engine.ts';
import { describe } from 'vitest';
import { noteSkip } from '../support/fixtures.ts';
import { attributesContract } from './attributes.contract.ts';
import { engineContract } from './engine.contract.ts';
import { priceContract } from './prices.contract.ts';
import { vectorFillContract } from './vector-fill.contract.ts';

const url = process.env.OPENSEARCH_URL ?? '';
if (!url) noteSkip('engine contract on OpenSearch', 'OPENSEARCH_URL is not set');

// Without OPENSEARCH_URL the contract's own tests are reported as skipped.
describe.skipIf(!url)('OpenSearch adapter', () => {
  const prefix = `pstest-contract-${process.pid}-${Date.now()}`;
  engineContract(
    'opensearch',
    async () => {
      const e = createOpenSearchEngine({ url, prefix });
      await e.init();
      return e;
    },
    async () => {
      await fetch(`${url}/${prefix}-*`, { method: 'DELETE' });
    },
  );
  const pricePrefix = `pstest-prices-${process.pid}-${Date.now()}`;
  priceContract(
    'opensearch',
    async () => {
      const e = createOpenSearchEngine({ url, prefix: pricePrefix });
      await e.init();
      return e;
    },
    async () => void (await fetch(`${url}/${pricePrefix}-*`, { method: 'DELETE' })),
  );
  const fillPrefix = `pstest-fill-${process.pid}-${Date.now()}`;
  vectorFillContract(
    'opensearch',
    async () => {
      const e = createOpenSearchEngine({ url, prefix: fillPrefix });
      await e.init();
      return e;
    },
    async () => void (await fetch(`${url}/${fillPrefix}-*`, { method: 'DELETE' })),
  );
  const attributesPrefix = `pstest-attributes-${process.pid}-${Date.now()}`;
  attributesContract(
    'opensearch',
    async () => {
      const e = createOpenSearchEngine({ url, prefix: attributesPrefix });
      await e.init();
      return e;
    },
    async () => void (await fetch(`${url}/${attributesPrefix}-*`, { method: 'DELETE' })),
  );
});
