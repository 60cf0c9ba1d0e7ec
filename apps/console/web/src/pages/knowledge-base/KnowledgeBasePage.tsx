import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { api, errorText } from '../../api/client';
import type { KbEntry } from '../../api/types';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorNote, StatusNote } from '../../components/ErrorNote';
import { FaqRow } from './FaqRow';
import { groupDocuments, questionEntries, scoreText } from './kb-view';
import { TableHead } from '../../components/TableHead';
import { TableScroll } from '../../components/TableScroll';
import { useNotes } from '../../components/use-notes';

const LIST_LIMIT = 1000;

const readAsDataUrl = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('the file could not be read'));
    reader.readAsDataURL(file);
  });

/** The knowledge base: search it as the agent would, add and edit FAQs, upload and delete documents. */
export function KnowledgeBasePage() {
  const [entries, setEntries] = useState<KbEntry[] | null>(null);
  const [count, setCount] = useState(0);
  const { error, setError, note, run: runOnly } = useNotes();
  const [hits, setHits] = useState<(KbEntry & { score: number })[] | null>(null);
  const load = useCallback(async () => {
    try {
      const page = await api<{ data: KbEntry[]; count: number }>('GET', `/knowledge-base?limit=${LIST_LIMIT}`);
      setEntries(page.data);
      setCount(page.count);
    } catch (err) {
      setError(errorText(err));
    }
  }, []);
  useEffect(() => void load(), [load]);
  const run = (label: string, call: () => Promise<string | void>) => runOnly(label, call, load);
  const search = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const query = String(new FormData(e.currentTarget).get('query') ?? '').trim();
    if (!query) return;
    setError(null);
    try {
      setHits((await api<{ data: (KbEntry & { score: number })[] }>('POST', '/knowledge-base/search', { body: { query, k: 5 } })).data);
    } catch (err) {
      setError(`Search: ${errorText(err)}`);
    }
  };
  const addFaq = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    void run('Add FAQ', async () => {
      await api('POST', '/knowledge-base/faq/create', {
        body: {
          question: String(data.get('question')).trim(),
          answer: String(data.get('answer')).trim(),
          is_active: data.get('is_active') === 'on',
        },
      });
      form.reset();
      return 'FAQ added; search finds it once its embedding is computed (a moment).';
    });
  };
  const upload = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    const file = data.get('document');
    if (!(file instanceof File) || !file.name) return;
    void run('Upload', async () => {
      const document = { filename: file.name, file: await readAsDataUrl(file), ...(file.type ? { mimetype: file.type } : {}) };
      const [result] = await api<{ status: string; reason: string | null; chunks_count?: number }[]>(
        'POST',
        '/knowledge-base/document/create',
        { body: { document, is_active: data.get('is_active') === 'on' } },
      );
      form.reset();
      return result.status === 'success'
        ? `${file.name}: ${result.chunks_count ?? 0} chunk(s) added.`
        : `${file.name}: ${result.reason ?? 'failed'}`;
    });
  };
  const faqs = entries ? questionEntries(entries) : [];
  const documents = entries ? groupDocuments(entries) : [];
  return (
    <>
      <form className="row" role="search" onSubmit={(e) => void search(e)} aria-label="Knowledge-base search">
        <label className="grow">
          Search the knowledge base
          <input name="query" type="search" required maxLength={8000} />
        </label>
        <button type="submit">Search</button>
      </form>
      {hits && (
        <section aria-label="Search results">
          {hits.length === 0 ? (
            <p>Nothing found (entries still being embedded are not found yet).</p>
          ) : (
            <ol className="hits">
              {hits.map((h) => (
                <li key={h.context_id} data-context-id={h.context_id}>
                  <strong>{h.question}</strong>{' '}
                  <span className="muted">
                    ({h.type}, {scoreText(h.score)}
                    {h.is_active ? '' : ', inactive'})
                  </span>
                  <br />
                  {h.answer}
                </li>
              ))}
            </ol>
          )}
        </section>
      )}
      <ErrorNote error={error} />
      <StatusNote note={note} />
      <div className="columns">
        <form className="stack" onSubmit={addFaq} aria-label="Add an FAQ">
          <h2>Add an FAQ</h2>
          <label>
            Question
            <input name="question" required />
          </label>
          <label>
            Answer
            <textarea name="answer" required rows={3} />
          </label>
          <label className="check">
            <input name="is_active" type="checkbox" defaultChecked /> Active (used by the agent)
          </label>
          <button type="submit">Add FAQ</button>
        </form>
        <form className="stack" onSubmit={upload} aria-label="Upload a document">
          <h2>Upload a document</h2>
          <label>
            File (PDF, DOCX, Markdown, text)
            <input name="document" type="file" required accept=".pdf,.docx,.md,.markdown,.txt,application/pdf,text/plain,text/markdown" />
          </label>
          <label className="check">
            <input name="is_active" type="checkbox" defaultChecked /> Active (used by the agent)
          </label>
          <button type="submit">Upload</button>
        </form>
      </div>
      {entries === null && !error && <p role="status">Loading the knowledge base…</p>}
      {entries && (
        <>
          <h2 className="section">FAQs ({faqs.length})</h2>
          {faqs.length === 0 ? (
            <p>No FAQs yet.</p>
          ) : (
            <ul className="cards" aria-label="FAQs">
              {faqs.map((e) => (
                <FaqRow key={e.context_id} entry={e} onChanged={load} />
              ))}
            </ul>
          )}
          <h2 className="section">Documents ({documents.length})</h2>
          {documents.length === 0 ? (
            <p>No documents yet.</p>
          ) : (
            <TableScroll label="Documents (scrolls sideways)">
              <table className="table">
                <caption className="muted">
                  A document&apos;s chunks stay active or inactive as uploaded (the API has no route to change them): upload it again to
                  change that.
                </caption>
                <TableHead columns={['File', 'Chunks', 'Active chunks', 'Added', 'Delete']} />
                <tbody>
                  {documents.map((d) => (
                    <tr key={d.document_id} data-document-id={d.document_id}>
                      <td>{d.file_name}</td>
                      <td>{d.chunks}</td>
                      <td>{d.active}</td>
                      <td>{new Date(d.created_at).toLocaleString()}</td>
                      <td>
                        <ConfirmButton
                          label="Delete"
                          question={`Delete ${d.file_name} and its ${d.chunks} chunk(s)?`}
                          confirmLabel="Delete"
                          danger
                          onConfirm={() => run('Delete', () => api('DELETE', `/knowledge-base/document/${d.document_id}`))}
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )}
          {count > entries.length && (
            <p className="muted">
              Showing the newest {entries.length} of {count} entries.
            </p>
          )}
        </>
      )}
    </>
  );
}
