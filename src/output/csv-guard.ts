// CSV for spreadsheets. Excel, LibreOffice and Google Sheets run a cell that starts with `=`, `+`,
// `-` or `@` as a formula (`=HYPERLINK(...)`, `=WEBSERVICE(...)`, DDE), and a leading tab or CR can
// hide such a start. Any of those characters at the start of a cell is neutralised the way OWASP's
// "CSV Injection" page recommends: a single quote in front, which spreadsheets show as text and
// hide. A cell that is a plain number (`-3`, `+1.5`, `-2e3`) is left alone, as OWASP advises: it
// cannot run anything, and a quote would turn a negative figure into text. Programs that read the
// CSV back (not a spreadsheet) turn the guard off with --no-csv-guard and get the cells as sent.

const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** The cell text a spreadsheet cannot run: `'=1+1` for `=1+1`; `-3` stays `-3`. */
export function guardCsvText(text: string): string {
  // most cells start with a letter or a digit: one character code says so without a regex
  const c = text.charCodeAt(0);
  if (c !== 0x3d && c !== 0x2b && c !== 0x2d && c !== 0x40 && c !== 0x09 && c !== 0x0d) return text;
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}
