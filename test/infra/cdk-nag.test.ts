import { Stack, Stage, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { cleanUp, synthesized } from './synth';

afterAll(cleanUp);

interface Acknowledgement {
  readonly path: string;
  readonly id: string;
  readonly reason: string;
  readonly onStack: boolean;
}

const acknowledgements = (root: IConstruct): Acknowledgement[] =>
  root.node.findAll().flatMap((construct) =>
    construct.node.metadata
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((entry) =>
        Object.entries(entry.data as Record<string, string>).map(([id, reason]) => ({
          path: construct.node.path,
          id,
          reason,
          onStack: Stack.isStack(construct) || Stage.isStage(construct),
        })),
      ),
  );

describe('cdk-nag AwsSolutions', () => {
  it('the app synthesises with the pack registered (a nag error would fail `cdk synth`)', () => {
    const { app } = synthesized();
    expect(app.node.findAll().length).toBeGreaterThan(0);
  });

  it('reports no unacknowledged findings, errors or warnings', () => {
    const { app } = synthesized();
    const report = new AwsSolutionsChecks(app, { verbose: true }).validateScope(app);
    const findings = report.violations.map(
      (v) => `${v.severity} ${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`,
    );
    expect(findings).toEqual([]);
    expect(report.success).toBe(true);
  });

  it('acknowledges on specific resources only, never a whole stack or the app', () => {
    const acks = acknowledgements(synthesized().app).filter((a) => a.id.includes('AwsSolutions-'));
    expect(acks.length).toBeGreaterThan(0);
    expect(acks.filter((a) => a.onStack)).toEqual([]);
  });

  it('every acknowledgement is a single finding or rule with a reason a reviewer can check', () => {
    const acks = acknowledgements(synthesized().app).filter((a) => a.id.includes('AwsSolutions-'));
    for (const ack of acks) {
      expect(ack.reason.length).toBeGreaterThan(120);
      // IAM5 is acknowledged per finding (one resource), never as a whole rule.
      if (ack.id.includes('AwsSolutions-IAM5')) expect(ack.id).toMatch(/AwsSolutions-IAM5\[Resource::.+\]$/);
    }
  });

  it('acknowledges exactly the reviewed set of rules', () => {
    const ids = new Set(
      acknowledgements(synthesized().app)
        .filter((a) => a.id.includes('AwsSolutions-'))
        .map((a) => a.id.replace(/^[^:]*::/, '').replace(/\[.*\]$/, '')),
    );
    expect([...ids].sort()).toEqual([
      'AwsSolutions-APIG2',
      // The operations console's two public GET methods (static files; lib/aws/console-site.ts).
      'AwsSolutions-APIG4',
      'AwsSolutions-COG4',
      'AwsSolutions-IAM4',
      'AwsSolutions-IAM5',
    ]);
  });

  it('the stage has a web ACL of its own by default, so APIG3 holds without acknowledgement', () => {
    const { app, stateless$ } = synthesized();
    stateless$.resourceCountIs('AWS::WAFv2::WebACL', 1);
    stateless$.resourceCountIs('AWS::WAFv2::WebACLAssociation', 1);
    expect(acknowledgements(app).map((a) => a.id)).not.toContainEqual(expect.stringContaining('APIG3'));
  });

  it("with a web ACL (context catalogJobs:webAclArn) the stage is associated with it instead of the stack's own", () => {
    const webAclArn = 'arn:aws:wafv2:eu-west-1:123456789012:regional/webacl/catalog-jobs/abc';
    const { app, stateless$ } = synthesized({ 'catalogJobs:webAclArn': webAclArn });
    stateless$.hasResourceProperties('AWS::WAFv2::WebACLAssociation', { WebACLArn: webAclArn });
    stateless$.resourceCountIs('AWS::WAFv2::WebACL', 0);
    const report = new AwsSolutionsChecks(app).validateScope(app);
    expect(report.violations).toEqual([]);
    expect(acknowledgements(app).map((a) => a.id)).not.toContainEqual(expect.stringContaining('APIG3'));
  });
});
