/**
 * Which stack an operator command (`npm run keys`, `npm run callbacks`) talks to, and in which region:
 * the running local service, or a deployed stack described by `cdk deploy`'s outputs file or by
 * environment variables. Free of the Lambda code's wiring, so that commands and tests share it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { loadConfig } from '@smithy/core/config';
import { OUTPUTS, STACK_NAMES } from '../aws/names';

/** `cdk deploy --outputs-file`: { StackName: { OutputKey: value } }. */
export type StackOutputs = Readonly<Record<string, Readonly<Record<string, string>>>>;

export class TargetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TargetError';
  }
}

export const readOutputs = (file: string): StackOutputs => {
  if (!existsSync(file))
    throw new TargetError(`${file} does not exist (npm run deploy writes cdk-outputs.json)`);
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as StackOutputs;
  } catch {
    throw new TargetError(`${file} is not the JSON outputs file cdk deploy writes`);
  }
};

/** An output of one of the service's stacks (or of any stack in the file, for files that rename them). */
export const outputOf = (outputs: StackOutputs, key: string, stack?: string): string | undefined => {
  const preferred = stack ? outputs[stack]?.[key] : undefined;
  if (preferred) return preferred;
  for (const values of Object.values(outputs)) if (values[key]) return values[key];
  return undefined;
};

export interface RegionSources {
  /** `--region`. */
  readonly flag?: string;
  /** `--profile`; else AWS_PROFILE; else `default`. */
  readonly profile?: string;
  /** The `Region` output of the stacks (where they were deployed). */
  readonly outputs?: StackOutputs;
  readonly env: NodeJS.ProcessEnv;
}

/**
 * The region the way the AWS CLI finds it: `--region`, then AWS_REGION, then AWS_DEFAULT_REGION, then the
 * `region` of the profile (`--profile` or AWS_PROFILE) in the shared config file (AWS_CONFIG_FILE, else
 * ~/.aws/config), read by the SDK's own loader. A stack's outputs file comes first of all but `--region`:
 * it says where the stack is. No fallback: without a region the command stops and says how to give one.
 */
export const resolveRegion = async (sources: RegionSources): Promise<string> => {
  const fromOutputs = sources.outputs ? outputOf(sources.outputs, OUTPUTS.region) : undefined;
  if (sources.flag && fromOutputs && sources.flag !== fromOutputs) {
    throw new TargetError(
      `--region ${sources.flag} contradicts the outputs file, whose stacks are in ${fromOutputs}`,
    );
  }
  if (sources.flag) return sources.flag;
  if (fromOutputs) return fromOutputs;
  const env = sources.env;
  const fromEnv = env.AWS_REGION || env.AWS_DEFAULT_REGION;
  if (fromEnv) return fromEnv;
  const region = await loadConfig<string | undefined>(
    {
      environmentVariableSelector: () => undefined,
      configFileSelector: (profile) => profile.region || undefined,
      default: () => undefined,
    },
    { profile: sources.profile ?? env.AWS_PROFILE, preferredFile: 'config' },
  )().catch(() => undefined);
  if (!region) {
    throw new TargetError(
      'No AWS region: pass --region, set AWS_REGION, or give the profile a region ' +
        '(aws configure set region <region> [--profile <name>])',
    );
  }
  return region;
};

/** The deployed stack's names an operator command needs, from the outputs file or the environment. */
export interface DeployedNames {
  readonly tableName: string;
  readonly usagePlanId?: string;
}

export const deployedNames = (outputs: StackOutputs | undefined, env: NodeJS.ProcessEnv): DeployedNames => {
  if (outputs) {
    const tableName = outputOf(outputs, OUTPUTS.tableName, STACK_NAMES.stateful);
    if (!tableName) throw new TargetError(`the outputs file has no ${OUTPUTS.tableName} output`);
    return {
      tableName,
      usagePlanId: outputOf(outputs, OUTPUTS.usagePlanId, STACK_NAMES.stateless) ?? env.USAGE_PLAN_ID,
    };
  }
  return { tableName: env.TABLE_NAME!, usagePlanId: env.USAGE_PLAN_ID || undefined };
};
