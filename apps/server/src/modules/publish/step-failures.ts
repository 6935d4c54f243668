import { PlatformError } from '../../integrations/platforms/types.js';
import type { StepDiagnostic } from '../../integrations/platforms/site-steps.js';

/** One failed step of a site's automation, as publishing, binding and the canary report it. */
export interface StepFailureReport {
  platform: string;
  source: 'publish' | 'binding' | 'canary';
  accountId: number | null;
  jobId: string | null;
  diagnostic: StepDiagnostic;
}

/**
 * Where step failures go (平台健康 implements it: a bounded table and the screenshot file). Never throws: a failure to
 * record one must not change how the publish or login that failed is handled.
 */
export interface StepFailureRecorder {
  record(report: StepFailureReport): Promise<void>;
}

/** The step diagnostic an adapter attached to the error it threw, if any. */
export function diagnosticOf(err: unknown): StepDiagnostic | null {
  return err instanceof PlatformError && err.diagnostic ? err.diagnostic : null;
}
