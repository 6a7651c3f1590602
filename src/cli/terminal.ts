// What the CLI prints from the store reaches a terminal, which obeys control
// characters: ESC starts ANSI sequences (`ESC [8m` hides what follows, OSC 52
// writes the clipboard), U+009B is a one-character CSI. Writes never store
// them (src/domain/writes.ts), but data files are loaded as given and rows
// written before that rule may hold them, so every printed value is shown,
// never obeyed.

/** C0 and C1 control characters and DEL. */
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/g;

/** `\x1b` for ESC: the character's code, two hex digits. */
const escaped = (c: string) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;

/** Text for one line of output: runs of blanks (tab, CR, LF included) as one space, other controls as `\x..`. */
export function visibleLine(text: string): string {
  return text.replace(/\s+/g, ' ').replace(CONTROL, escaped);
}

/**
 * JSON as the CLI prints it. JSON.stringify escapes C0 controls but writes
 * DEL and C1 as they are; in JSON text they can only stand inside a string,
 * where `\u00XX` means the same character.
 */
export function visibleJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(
    /[\u007F-\u009F]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
