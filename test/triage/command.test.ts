import { describe, expect, it } from 'vitest';
import { parseTriageComment } from '../../src/triage/command.js';

describe('parseTriageComment', () => {
  it.each([
    ['/nightbench accept', { kind: 'command', command: 'accept' }],
    ['  /NightBench   Accept  ', { kind: 'command', command: 'accept' }],
    ['Looked at it.\n/nightbench false-alarm noisy neighbour on the runner\nthanks', { kind: 'command', command: 'false-alarm', note: 'noisy neighbour on the runner' }],
    ['/nightbench bisect', { kind: 'command', command: 'bisect' }],
    ['/nightbench rerun\r\n', { kind: 'command', command: 'rerun' }],
    ['/nightbench fixed-by 0123ABCdef', { kind: 'command', command: 'fixed-by', sha: '0123abcdef' }],
    ['/nightbench fixed-by a1b2c3d4e5f60718293a4b5c6d7e8f9012345678 (the revert)', { kind: 'command', command: 'fixed-by', sha: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678', note: '(the revert)' }],
    ['/nightbench help', { kind: 'help' }],
    ['/nightbench', { kind: 'unknown' }],
    ['/nightbench close-everything', { kind: 'unknown' }],
    ['/nightbench fixed-by', { kind: 'invalid', command: 'fixed-by' }],
    ['/nightbench fixed-by 123456', { kind: 'invalid', command: 'fixed-by' }],
    ['/nightbench fixed-by $(rm -rf /)', { kind: 'invalid', command: 'fixed-by' }],
    ['/nightbench fixed-by `id`', { kind: 'invalid', command: 'fixed-by' }],
  ])('%j', (body, expected) => {
    expect(parseTriageComment(body)).toMatchObject(expected);
  });

  it.each([
    'Nice catch!',
    'See `/nightbench accept` in the docs',
    '> /nightbench accept',
    'To accept, write:\n```\n/nightbench accept\n```',
    '~~~~\n/nightbench false-alarm\n~~~\n~~~~',
    '/nightbenchaccept',
    'please /nightbench accept',
    '',
  ])('%j is not a command', (body) => {
    expect(parseTriageComment(body)).toBeUndefined();
  });

  it('takes a line of inline code for inline code, not a fence', () => {
    expect(parseTriageComment('```/nightbench bisect``` is for later.\n/nightbench accept')).toMatchObject({ kind: 'command', command: 'accept' });
  });

  it('reads the command after a fenced example of it', () => {
    expect(parseTriageComment('Usage:\n```\n/nightbench fixed-by SHA\n```\n/nightbench fixed-by 0123abc')).toMatchObject({ kind: 'command', command: 'fixed-by', sha: '0123abc' });
  });

  it('keeps $(...), backticks and ${{ }} after a command as plain text, never as a commit', () => {
    const note = '$(touch /tmp/x) `whoami` ${{ secrets.GITHUB_TOKEN }}';
    expect(parseTriageComment(`/nightbench accept ${note}`)).toEqual({ kind: 'command', command: 'accept', note });
    expect(parseTriageComment(`/nightbench fixed-by \${{ github.sha }}`)).toMatchObject({ kind: 'invalid' });
  });

  it('caps a note at 500 characters', () => {
    const parsed = parseTriageComment(`/nightbench accept ${'x'.repeat(2000)}`);
    expect(parsed).toMatchObject({ kind: 'command' });
    expect((parsed as { note: string }).note).toHaveLength(500);
  });
});
