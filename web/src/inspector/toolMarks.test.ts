import { describe, expect, it } from 'vitest';
import type { Finding, Severity } from '../api/types.gen';
import { findingsSummary, toolMark } from './toolMarks';

const finding = (severity: Severity): Finding => ({ ruleSet: 'spec', rule: 'r', severity, message: 'm', source: 'https://x', fix: 'f', frames: [], tool: 't' });

describe('tool marks', () => {
  it('name the worst severity and count what the list shows', () => {
    expect(toolMark(undefined)).toBeNull();
    expect(toolMark([finding('info')])).toBeNull();
    expect(toolMark([finding('warning'), finding('warning')])).toEqual({ severity: 'warning', label: '2 warnings' });
    expect(toolMark([finding('warning'), finding('error')])).toEqual({ severity: 'error', label: '1 error, 1 warning' });
  });
  it('summarise a tool’s checks with errors and warnings always, notes when any', () => {
    expect(findingsSummary([finding('warning')])).toBe('0 errors, 1 warning');
    expect(findingsSummary([finding('error'), finding('error'), finding('info')])).toBe('2 errors, 0 warnings, 1 note');
  });
});
