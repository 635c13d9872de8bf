// What a tool card needs to host an app inside a chat session: where to send the app's
// follow-up messages and model context, and what the session already holds for it.
import { createContext, useContext } from 'react';
import type { AppContextEntry } from '../api/types.gen';
import type { AppMessageChannel } from '../apps/appMessages';

export interface ChatApps {
  sessionId: string;
  /** Where apps' messages go once the user agrees (see `apps/appMessages.ts`). */
  followUp: AppMessageChannel;
  appContext: AppContextEntry[];
}

export const ChatAppsContext = createContext<ChatApps | null>(null);

export function useChatApps(): ChatApps | null {
  return useContext(ChatAppsContext);
}
