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
});
