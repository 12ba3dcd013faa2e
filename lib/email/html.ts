/** HTML escaping for the e-mails the app sends. */

/** Escapes text for use inside HTML (element content or a quoted attribute). */
export function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
