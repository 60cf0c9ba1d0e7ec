/** An error for the person to read (the API's message); announced to screen readers. */
export function ErrorNote({ error }: { error: string | null }) {
  if (!error) return null;
  return (
    <p className="error" role="alert">
      {error}
    </p>
  );
}

/** A passing note for the person (what an action did); announced politely to screen readers. */
export function StatusNote({ note }: { note: string | null }) {
  if (!note) return null;
  return (
    <p className="muted" role="status">
      {note}
    </p>
  );
}
