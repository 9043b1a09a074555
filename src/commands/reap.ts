import type { Command } from 'commander';
import { NightbenchError } from '../errors.js';
import { addCommonOptions, type CliCommand, type CommonOptions } from './command.js';
import { commandContext } from './context.js';

interface ReapOptions extends CommonOptions {
  region?: string;
  repository?: string;
  dryRun?: boolean;
}

/**
 * `nightbench reap`: terminates this repository's EC2 instances whose time-to-live has passed.
 * A scheduled workflow runs it; a run's own teardown normally leaves nothing for it to do.
 */
export const reapCommand: CliCommand = {
  register(program: Command, setExitCode) {
    addCommonOptions(
      program
        .command('reap')
        .description('terminate every EC2 instance of this repository whose nightbench:expires-at tag has passed (leaked by a run that died)')
        .addHelpText(
          'after',
          [
            '',
            'Only instances tagged nightbench:repository=<repository> are considered, and only those whose',
            'nightbench:expires-at lies in the past are terminated. Credentials and region come from the usual',
            'AWS environment (AWS_REGION, AWS_PROFILE, a role); the region and repository default to',
            'cluster.options of an "ec2" config, the repository also to $GITHUB_REPOSITORY.',
            '',
            'Examples:',
            '  nightbench reap --dry-run            list what would be terminated',
            '  nightbench reap --region eu-west-1 --repository my-org/nightbench --json',
          ].join('\n'),
        ),
    )
      .option('--region <region>', 'AWS region (default: cluster.options.region, else $AWS_REGION)')
      .option('--repository <name>', 'whose instances to reap (default: cluster.options.repository, else $GITHUB_REPOSITORY)')
      .option('--dry-run', 'list the expired instances without terminating them')
      .option('--json', 'machine-readable output')
      .action(async (options: ReapOptions) => {
        const context = commandContext(options);
        const cluster = context.loaded.config.cluster;
        const configured = cluster.provider === 'ec2' ? cluster.options : {};
        const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
        const region = options.region ?? text(configured.region) ?? text(process.env.AWS_REGION);
        const repository = options.repository ?? text(configured.repository) ?? text(process.env.GITHUB_REPOSITORY);
        if (!region) throw new NightbenchError('usage', 'reap: no region: pass --region, set cluster.options.region of an ec2 config, or AWS_REGION');
        if (!repository) throw new NightbenchError('usage', 'reap: no repository: pass --repository, set cluster.options.repository of an ec2 config, or GITHUB_REPOSITORY');
        // Loaded here, not at the top: every other command starts without the AWS SDK.
        const { createEc2Client } = await import('../cluster/ec2/api.js');
        const { reapExpired } = await import('../cluster/ec2/reap.js');
        const client = createEc2Client(region);
        try {
          const result = await reapExpired(client, { repository, now: new Date(), dryRun: options.dryRun });
          const ids = result.terminate.map((i) => i.instanceId);
          if (result.unreadable.length > 0) context.log.warn(`left alone, expiry tag unreadable: ${result.unreadable.map((i) => i.instanceId).join(', ')}`);
          const verb = options.dryRun ? 'would terminate' : 'terminated';
          process.stdout.write(
            options.json
              ? `${JSON.stringify({ region, repository, dryRun: Boolean(options.dryRun), expired: ids, terminated: result.terminated, alive: result.alive.map((i) => i.instanceId), unreadable: result.unreadable.map((i) => i.instanceId) }, null, 2)}\n`
              : `${ids.length === 0 ? 'no expired instances' : `${verb} ${ids.length}: ${ids.join(', ')}`} (${result.alive.length} still within their time-to-live) in ${region} for ${repository}\n`,
          );
        } finally {
          client.destroy();
        }
        setExitCode(0);
      });
  },
};
