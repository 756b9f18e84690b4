import type { Template } from 'aws-cdk-lib/assertions';
import { CONTEXT } from '../../lib/aws/app';
import { serviceFunctions } from '../../lib/aws/functions';
import { SAM_LOCAL_VARIABLES } from '../../lib/local/sam-env';
import { cleanUp, synthesized } from './synth';

afterAll(cleanUp);

type LambdaFunction = { Properties: { Environment?: { Variables?: Record<string, unknown> } } };
/** The service's functions (the ones with the table), not the console's or CDK's own. */
const functionsOf = (template: Template): LambdaFunction[] =>
  (Object.values(template.findResources('AWS::Lambda::Function')) as LambdaFunction[]).filter(
    (fn) => fn.Properties.Environment?.Variables?.TABLE_NAME !== undefined,
  );

describe('sam local start-api against the emulators (issue 24)', () => {
  it('declares the endpoint variables in every function, empty, only when synthesised for SAM', () => {
    const sam = synthesized({ [CONTEXT.samLocal]: 'true' });
    const samFunctions = functionsOf(sam.stateless$);
    expect(samFunctions).toHaveLength(serviceFunctions().length);
    for (const fn of samFunctions) {
      const variables = fn.Properties.Environment?.Variables ?? {};
      for (const name of SAM_LOCAL_VARIABLES) expect(variables[name]).toBe('');
    }
    const deployable = functionsOf(synthesized().stateless$);
    expect(deployable).toHaveLength(serviceFunctions().length);
    for (const fn of deployable) {
      const variables = fn.Properties.Environment?.Variables ?? {};
      for (const name of SAM_LOCAL_VARIABLES) expect(variables).not.toHaveProperty(name);
    }
  });
});
