import { describe, expect, it } from 'vitest';
import { isDemoHealth } from './demo-banner';

describe('isDemoHealth', () => {
  it('is true only for a health reply that says demo: true', () => {
    expect(isDemoHealth({ status: 'ok', sandboxes: ['sms (outbox)'], demo: true })).toBe(true);
    for (const body of [{ status: 'ok', demo: false }, { status: 'ok' }, { demo: 'true' }, null, '<!doctype html>']) expect(isDemoHealth(body)).toBe(false);
  });
});
