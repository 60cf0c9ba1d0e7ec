/** Label kinds as the API has them. */
export const LABEL_TYPES = ['chat', 'ticket', 'contact'] as const;

/** `/labels?…`: one type, or every type (a blank filter). */
export function labelsPath(type: string, limit = 500): string {
  const q = new URLSearchParams({ limit: String(limit) });
  if (type) q.set('type', type);
  return `/labels?${q.toString()}`;
}

/** The create body: the name trimmed (the API keeps it lower case), the colour and type as chosen. */
export function labelBody(form: { name: string; color: string; type: string }): { name: string; color: string; type: string } {
  return { name: form.name.trim(), color: form.color.toLowerCase(), type: form.type || 'chat' };
}
