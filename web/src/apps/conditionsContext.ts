// The host conditions apps render under when their parent does not pass any: the playground
// wraps its chat mode in this so the model-driven app sees the emulated device too.
import { createContext } from 'react';
import type { HostConditions } from './host';

export const HostConditionsContext = createContext<HostConditions | null>(null);
