import { useState } from 'react';
import { apiCsv, errorText } from '../../api/client';
import { ErrorNote } from '../../components/ErrorNote';

/**
 * "Download CSV" of a table: the route's CSV answer (`Accept: text/csv`, through the console's API path,
 * so the member's reach holds) saved as the file the answer names. A refusal shows as the page's errors do.
 */
export function CsvButton({ path, what, fallbackName }: { path: string; what: string; fallbackName: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const download = async () => {
    setBusy(true);
    setError(null);
    try {
      const { text, filename } = await apiCsv(path);
      const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
      const a = Object.assign(document.createElement('a'), { href: url, download: filename ?? fallbackName });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (err) {
      setError(`CSV of ${what}: ${errorText(err)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" className="secondary csv-button" disabled={busy} onClick={() => void download()}>
        Download CSV<span className="sr-only"> of {what}</span>
      </button>
      <ErrorNote error={error} />
    </>
  );
}
