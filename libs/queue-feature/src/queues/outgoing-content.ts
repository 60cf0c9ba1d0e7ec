import type { OutgoingContent, SendMessageBody } from '@mapi/contracts';

type Content = Pick<SendMessageBody, 'message' | 'media' | 'reply_to' | 'poll' | 'options' | 'template'>;

/** The public body's content in the session command's terms (../shared/reference/wider-api.md, "Send message"). */
export function toOutgoingContent(body: Content, text: string | undefined = body.message): OutgoingContent {
  const out: OutgoingContent = {};
  if (text !== undefined) out.text = text;
  if (body.media) out.media = { ...body.media };
  if (body.reply_to) out.reply_to = body.reply_to;
  if (body.poll)
    out.poll = {
      name: body.poll.pollName,
      options: body.poll.pollOptions,
      allow_multiple: body.poll.options?.allowMultipleAnswers ?? false,
    };
  if (body.options?.hide_url_preview !== undefined) out.hide_url_preview = body.options.hide_url_preview;
  if (body.template) out.template = { ...body.template };
  return out;
}

/** `{{name}}` → values.name; unknown names are left as written. */
export function fillTemplate(text: string, values: Record<string, string> | undefined): string {
  if (!values) return text;
  return text.replace(/\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(values, name) ? values[name] : whole,
  );
}
