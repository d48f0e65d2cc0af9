import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';

describe('configuration', () => {
  it('has a default for every key', () => {
    const c = loadConfig({ EMBEDDING_MODEL_DIR: 'none' });
    expect(c).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      engine: 'sqlite',
      opensearchUrl: null,
      redisUrl: null,
      embeddingModelDir: null,
      embeddingThreads: null,
      logLevel: 'info',
    });
    expect(loadConfig({ EMBEDDING_MODEL_DIR: 'none', EMBEDDING_THREADS: '2' }).embeddingThreads).toBe(2);
    expect(Object.isFrozen(c)).toBe(true);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT', /whole number/],
    [{ PORT: '70000' }, 'PORT', /between 0 and 65535/],
    [{ SEARCH_ENGINE: 'elastic' }, 'SEARCH_ENGINE', /one of sqlite, opensearch/],
    [{ SEARCH_ENGINE: 'opensearch' }, 'OPENSEARCH_URL', /required when SEARCH_ENGINE=opensearch/],
    [{ OPENSEARCH_URL: 'not a url' }, 'OPENSEARCH_URL', /must be a URL/],
    [{ OPENSEARCH_URL: 'http://a:9200,ftp://b' }, 'OPENSEARCH_URL', /http: or https:/],
    [{ OPENSEARCH_URL: 'http://u:p@a:9200,http://v:q@b:9200' }, 'OPENSEARCH_URL', /different credentials/],
    [{ OPENSEARCH_URL: 'http://a:9200', OPENSEARCH_USERNAME: 'u' }, 'OPENSEARCH_PASSWORD', /required with the other/],
    [{ OPENSEARCH_URL: 'http://a:9200', OPENSEARCH_AWS_REGION: 'mars' }, 'OPENSEARCH_AWS_REGION', /AWS region/],
    [{ OPENSEARCH_URL: 'http://u:p@a:9200', OPENSEARCH_AWS_REGION: 'eu-west-1' }, 'OPENSEARCH_AWS_REGION', /drop the Basic auth/],
    [{ OPENSEARCH_URL: 'https://a', OPENSEARCH_AWS_REGION: 'eu-west-1', OPENSEARCH_SNIFF: 'on' }, 'OPENSEARCH_SNIFF', /AWS SigV4/],
    [{ OPENSEARCH_URL: 'http://a:9200', OPENSEARCH_TLS_CA_FILE: '/nonexistent/ca.pem' }, 'OPENSEARCH_TLS_CA_FILE', /does not exist/],
    [{ OPENSEARCH_URL: 'http://a:9200', OPENSEARCH_REPLICAS: '2-1' }, 'OPENSEARCH_REPLICAS', /whole number or a range/],
    [{ OPENSEARCH_URL: 'http://a:9200', OPENSEARCH_SHARDS: '0' }, 'OPENSEARCH_SHARDS', /between 1 and/],
    [{ OPENSEARCH_URL: 'http://a:9200', OPENSEARCH_SEARCH_PREFERENCE: 'a b' }, 'OPENSEARCH_SEARCH_PREFERENCE', /preference such as _local/],
    [{ REDIS_URL: 'http://localhost:6379' }, 'REDIS_URL', /redis:/],
    [{ EMBEDDING_MODEL_DIR: '/nonexistent/model' }, 'EMBEDDING_MODEL_DIR', /does not exist/],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL', /one of/],
    [{ EMBEDDING_THREADS: '0' }, 'EMBEDDING_THREADS', /between 1 and 256/],
    [{ LLM_PROVIDER: 'openai' }, 'LLM_BASE_URL', /required when LLM_PROVIDER=openai/],
    [{ LLM_PROVIDER: 'anthropic' }, 'LLM_PROVIDER', /one of local, openai/],
    [{ LLM_TEMPERATURE: 'hot' }, 'LLM_TEMPERATURE', /0 to 2, or none/],
    [{ AI_JOB_TOKEN_BUDGET: '0' }, 'AI_JOB_TOKEN_BUDGET', /between 1 and/],
    [{ JOB_WORKERS: '65' }, 'JOB_WORKERS', /between 0 and 64/],
  ])('stops start-up on %o naming the variable', (env, variable, message) => {
    let err: unknown;
    try {
      loadConfig({ EMBEDDING_MODEL_DIR: 'none', ...env });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).variable).toBe(variable);
    expect((err as Error).message).toMatch(new RegExp(`^configuration: ${variable} `));
    expect((err as Error).message).toMatch(message);
  });

  it('reads the AI settings: the local provider by default, an OpenAI-compatible endpoint when asked', () => {
    expect(loadConfig({ EMBEDDING_MODEL_DIR: 'none' })).toMatchObject({
      llmProvider: 'local',
      llmTemperature: 0,
      aiTokenBudget: 20_000,
      jobWorkers: 2,
      publicBaseUrl: null,
    });
    expect(
      loadConfig({
        EMBEDDING_MODEL_DIR: 'none',
        LLM_PROVIDER: 'OpenAI',
        LLM_BASE_URL: 'http://127.0.0.1:11434/v1/',
        LLM_MODEL: 'qwen2.5',
        LLM_TEMPERATURE: 'none',
      }),
    ).toMatchObject({ llmProvider: 'openai', llmBaseUrl: 'http://127.0.0.1:11434/v1', llmModel: 'qwen2.5', llmTemperature: null });
  });

  it('accepts opensearch with a URL and trims trailing slashes', () => {
    const c = loadConfig({ EMBEDDING_MODEL_DIR: 'none', SEARCH_ENGINE: 'OpenSearch', OPENSEARCH_URL: 'http://127.0.0.1:9200/' });
    expect(c.engine).toBe('opensearch');
    expect(c.opensearchUrl).toBe('http://127.0.0.1:9200');
  });

  it('reads a list of OpenSearch nodes, its connection settings and the index layout', () => {
    const c = loadConfig({
      EMBEDDING_MODEL_DIR: 'none',
      SEARCH_ENGINE: 'opensearch',
      OPENSEARCH_URL: 'http://127.0.0.1:9301/, http://127.0.0.1:9302',
      OPENSEARCH_SNIFF: 'true',
      OPENSEARCH_SNIFF_INTERVAL: '0',
      OPENSEARCH_SHARDS: '3',
      OPENSEARCH_REPLICAS: '1',
    });
    expect(c.opensearchUrl).toBe('http://127.0.0.1:9301,http://127.0.0.1:9302');
    expect(c.opensearch).toEqual({
      connection: {
        nodes: ['http://127.0.0.1:9301', 'http://127.0.0.1:9302'],
        auth: null,
        tls: { caFile: null, certFile: null, keyFile: null, verify: true },
        sniff: { intervalMs: null },
        requestTimeoutMs: 120_000,
        retries: 5,
      },
      layout: { shards: 3, replicas: '1', healthTimeoutMs: 300_000 },
      searchPreference: '_local',
    });
    expect(
      loadConfig({ EMBEDDING_MODEL_DIR: 'none', OPENSEARCH_URL: 'http://a:9200', OPENSEARCH_SEARCH_PREFERENCE: 'none' }).opensearch?.searchPreference,
    ).toBeNull();
    expect(loadConfig({ EMBEDDING_MODEL_DIR: 'none', OPENSEARCH_URL: 'https://u%40x:p@h:9200' }).opensearch).toMatchObject({
      connection: { nodes: ['https://h:9200'], auth: { kind: 'basic', username: 'u@x', password: 'p' }, sniff: null },
      layout: { shards: 1, replicas: '0-1' },
    });
  });
});
