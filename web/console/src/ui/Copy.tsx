// Copying a secret or a snippet: the clipboard when the browser allows it,
// else the text is selected for Ctrl+C; either way the result is announced.
import { useId, useRef, useState } from 'react';
import { Button } from './kit';

export function CopyButton({ text, what }: { text: string; what: string }) {
  const [said, setSaid] = useState({ text: '', failed: false });
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setSaid({ text: `Copied the ${what}.`, failed: false });
    } catch {
      setSaid({ text: `The browser did not allow copying: select the ${what} and press Ctrl+C.`, failed: true });
    }
  };
  return (
    <span className="copy">
      <Button variant="primary" onClick={() => void copy()}>
        Copy<span className="sr-only"> the {what}</span>
      </Button>
      {/* a refusal in the colour of failures, not of success */}
      <span role="status" className={said.failed ? 'copy-said copy-failed' : 'copy-said'}>
        {said.text}
      </span>
    </span>
  );
}

const HASHED = 'Copy it now and keep it safe: Wallery stores only its hash and cannot show it again.';

/** A secret shown this once: readable, selectable, copyable (`note`: why it cannot be shown again). */
export function SecretOnce({ label, secret, note = HASHED }: { label: string; secret: string; note?: string }) {
  const id = useId();
  const ref = useRef<HTMLInputElement>(null);
  return (
    <div className="secret">
      <p className="note note-warn">
        <strong>Shown this once.</strong> {note}
      </p>
      <label htmlFor={id}>{label}</label>
      <div className="secret-row">
        <input id={id} ref={ref} readOnly value={secret} onFocus={() => ref.current?.select()} className="mono" />
        <CopyButton text={secret} what={label.toLowerCase()} />
      </div>
    </div>
  );
}
