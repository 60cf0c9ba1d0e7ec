import { useState, type FormEvent } from 'react';
import { api, errorText } from '../../api/client';
import { ErrorNote } from '../../components/ErrorNote';

/** Pairing by code instead of the QR: the phone's number → a code to type on the phone. */
export function PairingCodeForm({ phoneId }: { phoneId: string }) {
  const [code, setCode] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const number = String(new FormData(e.currentTarget).get('number') ?? '').replace(/\D/g, '');
    setError(null);
    try {
      const answer = await api<{ pairing_code: string }>('POST', '/phones/pairing-code', { body: { number }, phone: phoneId });
      setCode(answer.pairing_code);
    } catch (err) {
      setError(errorText(err));
    }
  };
  return (
    <form className="row pairing" onSubmit={(e) => void submit(e)}>
      <label>
        Pair by code: phone number
        <input name="number" inputMode="tel" placeholder="447700900123" required />
      </label>
      <button type="submit" className="secondary">
        Get code
      </button>
      {code && (
        <p className="code" role="status">
          Enter <strong>{code}</strong> on the phone
        </p>
      )}
      <ErrorNote error={error} />
    </form>
  );
}
