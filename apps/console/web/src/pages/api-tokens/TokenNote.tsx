import { useState } from 'react';

/** A new token, shown once (the API keeps only its hash), with a copy button. */
export function TokenNote({ token, onDone }: { token: { name: string; token: string } | null; onDone(): void }) {
  const [copied, setCopied] = useState<string | null>(null);
  if (!token) return null;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(token.token);
      setCopied('Copied.');
    } catch {
      setCopied('Could not copy: select the token and copy it by hand.');
    }
  };
  return (
    <div className="card notice" role="status">
      <p>
        The token "{token.name}", shown only now; keep it where your integration reads it (it goes in <code>Authorization: Bearer …</code>):
        <br />
        <code className="link" data-testid="api-token-secret">
          {token.token}
        </code>
      </p>
      <div className="row">
        <button type="button" onClick={() => void copy()}>
          Copy
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          I have kept it
        </button>
        {copied && <span className="muted">{copied}</span>}
      </div>
    </div>
  );
}
