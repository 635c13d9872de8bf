// Narrow windows: the bar above the conversation that opens the chat list or the session's
// settings (one drawer at a time; pressing the open one's button closes it).
import { MessagesSquare, SlidersHorizontal } from 'lucide-react';
import { Button } from '../ui/Button';

type Drawer = 'sessions' | 'settings' | null;

export function ChatDrawerBar({ drawer, onDrawer, settings }: { drawer: Drawer; onDrawer: (d: Drawer) => void; settings: boolean }) {
  const toggle = (d: Exclude<Drawer, null>) => onDrawer(drawer === d ? null : d);
  return (
    <div className="chat-drawer-bar" data-testid="chat-drawer-bar">
      <Button small variant="ghost" onClick={() => toggle('sessions')} aria-expanded={drawer === 'sessions'} data-testid="chat-sessions-open">
        <MessagesSquare size={15} aria-hidden="true" /> Chats
      </Button>
      {settings && (
        <Button small variant="ghost" onClick={() => toggle('settings')} aria-expanded={drawer === 'settings'} data-testid="chat-settings-open">
          <SlidersHorizontal size={15} aria-hidden="true" /> Settings
        </Button>
      )}
    </div>
  );
}
