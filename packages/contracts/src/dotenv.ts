/**
 * `.env` files as the hub and the agent read them (`@jira-hub/contracts/dotenv`, dependency-free).
 *
 * A .env file's lines as Node's loader reads them (`process.loadEnvFile`): `NAME=value` (optionally after
 * `export `), comments (#) and blank lines; a value in quotes may go on over several lines. Node skips a line of
 * any other shape without a word, and with it the variables after it (a token, say). The first such line,
 * or undefined when every line is one of those. Pure.
 */
const ASSIGNMENT = /^\s*(?:export\s+)?[A-Za-z_][A-Za-z0-9_.-]*\s*=\s*(.*)$/;

/** The quote a value opens and does not close on its own line (`"a` …, not `"a"`), if it does. */
function openQuote(value: string): string | undefined {
  const quote = value[0];
  if (quote !== '"' && quote !== "'" && quote !== '`') return undefined;
  return value.indexOf(quote, 1) === -1 ? quote : undefined;
}

/** The first line (from 1) that is neither an assignment, a comment nor blank, with its text. */
export function dotEnvProblem(text: string): { line: number; text: string } | undefined {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  let open: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (open !== undefined) {
      if (line.includes(open)) open = undefined;
      continue;
    }
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    const assignment = ASSIGNMENT.exec(line);
    if (!assignment) return { line: i + 1, text: line.trim() };
    open = openQuote(assignment[1]!.trim());
  }
  return undefined;
}

/**
 * The one line a person reads when a .env file (`file`: its full path) has such a line: the line, and what
 * Node would do with it. Undefined when the file is fine.
 */
export function dotEnvRefusal(file: string, text: string): string | undefined {
  const problem = dotEnvProblem(text);
  if (!problem) return undefined;
  const shown = problem.text.length > 60 ? `${problem.text.slice(0, 60)}…` : problem.text;
  return `${file}, строка ${problem.line}: «${shown}» — не «ИМЯ=значение» и не комментарий (#): она и переменные после неё не были бы прочитаны; исправьте строку`;
}
