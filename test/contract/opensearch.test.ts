import { createOpenSearchEngine } from '../../src/engines/opensearch/engine.ts';
import { describe, it } from 'vitest';
import { noteSkip } from '../support/fixtures.ts';
import { engineContract } from './engine.contract.ts';
import { priceContract } from './prices.contract.ts';

const url = process.env.OPENSEARCH_URL;
if (url) {
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
} else {
  noteSkip('engine contract on OpenSearch', 'OPENSEARCH_URL is not set');
  describe.skip('search engine contract: opensearch (OPENSEARCH_URL is not set)', () => it('runs against a real OpenSearch', () => {}));
}
