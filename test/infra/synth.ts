import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, type CfnElement, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { addCatalogJobs, type CatalogJobs } from '../../lib/aws/app';
import { repoRoot } from '../../lib/aws/paths';

export interface Synthesized extends CatalogJobs {
  readonly app: App;
  readonly stateful$: Template;
  readonly stateless$: Template;
}

let cached: Synthesized | undefined;
const outdirs: string[] = [];

/**
 * The app as `cdk synth` builds it (cdk.json's feature flags, the cdk-nag plugin), synthesised once per test
 * file, with bundling skipped so that it is fast and independent of handler files being written elsewhere.
 */
export const synthesized = (extraContext: Record<string, unknown> = {}): Synthesized => {
  if (cached && Object.keys(extraContext).length === 0) return cached;
  const root = repoRoot();
  const cdkJson = JSON.parse(readFileSync(join(root, 'cdk.json'), 'utf8')) as {
    context?: Record<string, unknown>;
  };
  const outdir = mkdtempSync(join(tmpdir(), 'catalog-jobs-infra-'));
  outdirs.push(outdir);
  const app = new App({
    outdir,
    context: { ...cdkJson.context, 'aws:cdk:bundling-stacks': [], ...extraContext },
  });
  const stacks = addCatalogJobs(app, { projectRoot: root });
  // Runs the validation plugins too: a cdk-nag error would throw here, as it fails `cdk synth`. The report
  // of warnings (placeholders for handlers not written yet) goes to console.error; the nag test reads it.
  const quiet = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    app.synth();
  } catch (error) {
    const report = join(outdir, 'validation-report.json');
    throw new Error(`${(error as Error).message}\n${existsSync(report) ? readFileSync(report, 'utf8') : ''}`);
  } finally {
    quiet.mockRestore();
  }
  const result: Synthesized = {
    app,
    ...stacks,
    stateful$: Template.fromStack(stacks.stateful),
    stateless$: Template.fromStack(stacks.stateless),
  };
  if (Object.keys(extraContext).length === 0) cached = result;
  return result;
};

export const cleanUp = (): void => {
  for (const dir of outdirs.splice(0)) rmSync(dir, { recursive: true, force: true });
};

/** The CloudFormation logical id of a construct's L1 resource. */
export const logicalId = (construct: IConstruct): string => {
  const element = (construct.node.defaultChild ?? construct) as CfnElement;
  return Stack.of(element).resolve(element.logicalId) as string;
};

export interface Statement {
  readonly Sid?: string;
  readonly Effect: string;
  readonly Action: string | string[];
  readonly Resource: unknown;
}

export const actionsOf = (statement: Statement): string[] =>
  Array.isArray(statement.Action) ? statement.Action : [statement.Action];

export const resourcesOf = (statement: Statement): unknown[] =>
  Array.isArray(statement.Resource) ? statement.Resource : [statement.Resource];

/** Every statement of the inline policies attached to a role (by its logical id). */
export const roleStatements = (template: Template, roleLogicalId: string): Statement[] =>
  Object.values(template.findResources('AWS::IAM::Policy')).flatMap((policy) => {
    const props = policy.Properties as {
      Roles: { Ref: string }[];
      PolicyDocument: { Statement: Statement[] };
    };
    return props.Roles.some((r) => r.Ref === roleLogicalId) ? props.PolicyDocument.Statement : [];
  });
