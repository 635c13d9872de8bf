// The message box: Enter sends, Shift+Enter is a newline. Disabled while a turn runs, when
// the Stop button takes the Send button's place.
import { useState } from 'react';
import { Button } from '../ui/Button';

export function Composer({
  running,
  disabledReason,
  onSend,
  onStop,
}: {
  running: boolean;
  /** Why nothing can be sent (no model…); null when sending is possible. */
  disabledReason: string | null;
  onSend: (text: string) => void;
  onStop: () => void;
}) {
  const [text, setText] = useState('');
  const [stopping, setStopping] = useState(false);
  const disabled = running || disabledReason !== null;
  const send = () => {
    const t = text.trim();
    if (!t || disabled) return;
    onSend(t);
    setText('');
  };
  const stop = async () => {
    setStopping(true);
    try {
      await onStop();
    } finally {
      setStopping(false);
    }
  };

  return (
    <div className="chat-composer">
      <textarea
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            send();
          }
        }}
        rows={3}
        disabled={disabled}
        placeholder={disabledReason ?? (running ? 'The model is answering…' : 'Message (Enter sends, Shift+Enter for a new line)')}
        aria-label="Message"
        data-testid="chat-input"
      />
      <div className="chat-composer-actions">
        {running ? (
          <Button variant="danger" onClick={stop} busy={stopping} data-testid="chat-stop" title="Stop the model and cancel running tool calls">
            ■ Stop
          </Button>
        ) : (
          <Button variant="primary" onClick={send} disabled={disabled || !text.trim()} data-testid="chat-send">
            Send
          </Button>
        )}
      </div>
    </div>
  );
}
