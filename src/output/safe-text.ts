// Text from outside (the service's messages and field names, HTML snippets, a file's content) must not drive the
// terminal: an escape sequence could clear the screen, set the window title, or hide what comes next. One function
// removes them wherever such text is printed.

/* eslint-disable no-control-regex -- control characters are what these patterns remove */
/** Escape sequences: CSI (ESC [ ... final), OSC (ESC ] ... BEL or ESC \), and any other ESC with one character. */
const escapeSequences =
  /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[\s\S]?|\u009b[0-?]*[ -/]*[@-~]/g;
/** The control characters left after that (C0 but tab and line feed, DEL, C1) and the bidirectional overrides. */
const controlCharacters = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
/* eslint-enable no-control-regex */

/** `text` without terminal escape sequences and control characters; line feeds and tabs are kept. */
export function terminalSafe(text: string): string {
  return text.replace(escapeSequences, '').replace(controlCharacters, '');
}
