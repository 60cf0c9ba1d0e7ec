/** A signing secret, shown once (creation, rotation): the API never shows it again. */
export function SecretNote({ secret, onDone }: { secret: { id: string; secret: string } | null; onDone(): void }) {
  if (!secret) return null;
  return (
    <div className="card notice" role="status">
      <p>
        Signing secret of this subscription, shown only now; keep it where the receiver checks signatures:
        <br />
        <code className="link" data-testid="webhook-secret">
          {secret.secret}
        </code>
      </p>
      <button type="button" className="secondary" onClick={onDone}>
        I have kept it
      </button>
    </div>
  );
}
