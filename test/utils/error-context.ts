/**
 * Adds what a failing test saw to its error, where jest prints it: the message, and the stack
 * when the stack was written before (Playwright's errors) and does not carry the text yet.
 */
export function addToError(error: Error, text: string): void {
  error.message += `\n\n${text}`;
  if (error.stack && !error.stack.includes(text)) error.stack += `\n\n${text}`;
}
