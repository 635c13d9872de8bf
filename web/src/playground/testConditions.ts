// Host conditions for unit tests (no window needed).
import type { HostConditions } from '../apps/host';

export function defaultConditionsForTest(): HostConditions {
  return {
    theme: 'light',
    locale: 'en-US',
    timeZone: 'UTC',
    platform: 'web',
    deviceType: 'desktop',
    hover: true,
    touch: false,
    safeArea: { top: 0, right: 0, bottom: 0, left: 0 },
    availableDisplayModes: ['inline', 'fullscreen', 'pip'],
    cspMode: 'declared',
    openaiShim: false,
  };
}
