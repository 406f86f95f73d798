/** What a thrown value says: an Error's message, anything else as a string (for error lines and failure text). */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
