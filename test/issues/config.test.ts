import { describe, expect, it } from 'vitest';
import { validate } from '../../src/validation.js';
import { configSchema } from '../../src/config/schema.js';

describe('the github config section', () => {
  it('defaults to files-only issues with the standard labels and token variable', () => {
    const { github } = configSchema.parse({});
    expect(github.repository).toBeUndefined();
    expect(github).toMatchObject({ tokenEnv: 'GITHUB_TOKEN', labels: ['performance', 'regression'], mention: 'authors', retries: 3, improvements: 'off' });
    expect(configSchema.parse({ github: { improvements: 'comment' } }).github.improvements).toBe('comment');
  });

  it.each([
    [{ repository: 'no-slash' }, /github\.repository: must be "owner\/name"/],
    [{ mention: 'everyone' }, /github\.mention: /],
    [{ improvements: 'issues' }, /github\.improvements: /],
    [{ tokenEnv: 'not a name' }, /github\.tokenEnv: must be an environment variable name/],
    [{ apiUrl: 'not a url' }, /github\.apiUrl: /],
    [{ token: 'secret' }, /github: unknown key "token"/],
  ])('rejects %j', (github, message) => {
    expect(() => validate(configSchema, { github }, 'config')).toThrow(message);
  });
});
