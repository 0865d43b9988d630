/**
 * The JQL subset the simulator understands: clauses joined by AND and OR (AND binds tighter, as in Jira),
 * grouped by parentheses, negated by a leading NOT, then an optional ORDER BY.
 *   project = X | project in (X, Y)
 *   key = K | key in (K1, K2)            (issuekey is an alias)
 *   summary ~ "text" | text ~ "text"     (case-insensitive, Unicode spelling-sensitive; a quoted phrase must appear as is, else every word)
 *   status = S | status in (...) | issuetype = T | labels = L | assignee = U | sprint = name-or-id
 *   updated >= D | created >= D           (also >, <, <=; D = "yyyy-MM-dd[ HH:mm]", "yyyy/MM/dd[ HH:mm]", -5d/-2h/-30m/-1w)
 *   ORDER BY key|created|updated|summary|status [ASC|DESC], ...
 * Any other syntax raises JqlError, which the simulator answers with 400 as Jira does.
 */

export class JqlError extends Error {}

type Token = { kind: 'word' | 'string' | 'op' | 'punct'; value: string };

export type JqlOp = '=' | '!=' | '~' | '>=' | '<=' | '>' | '<';

export type JqlClause =
  | { kind: 'cmp'; field: string; op: JqlOp; value: string }
  | { kind: 'in'; field: string; negated: boolean; values: string[] };

export interface JqlOrder {
  field: string;
  desc: boolean;
}

/** A JQL condition: a clause, or clauses joined by AND / OR, or a negated condition. */
export type JqlExpr = JqlClause | { kind: 'and' | 'or'; items: JqlExpr[] } | { kind: 'not'; item: JqlExpr };

export interface JqlQuery {
  /** every clause of the condition, in order (whatever joins them) */
  clauses: JqlClause[];
  /** the condition; null when the query has none (only ORDER BY, or empty) */
  where: JqlExpr | null;
  orderBy: JqlOrder[];
}

/** Whether `expr` holds, given how each clause is matched. */
export function holds(expr: JqlExpr | null, match: (clause: JqlClause) => boolean): boolean {
  if (expr === null) return true;
  switch (expr.kind) {
    case 'and': return expr.items.every((e) => holds(e, match));
    case 'or': return expr.items.some((e) => holds(e, match));
    case 'not': return !holds(expr.item, match);
    default: return match(expr);
  }
}

function tokenize(jql: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < jql.length) {
    const ch = jql[i]!;
    if (/\s/.test(ch)) {
      i++;
    } else if (ch === '"' || ch === "'") {
      let value = '';
      i++;
      while (i < jql.length && jql[i] !== ch) {
        if (jql[i] === '\\' && i + 1 < jql.length) i++;
        value += jql[i];
        i++;
      }
      if (i >= jql.length) throw new JqlError(`Error in the JQL Query: unterminated string ${ch}${value}.`);
      i++;
      tokens.push({ kind: 'string', value });
    } else if (ch === '(' || ch === ')' || ch === ',') {
      tokens.push({ kind: 'punct', value: ch });
      i++;
    } else {
      const op = /^(!=|>=|<=|!~|=|~|>|<)/.exec(jql.slice(i));
      if (op) {
        tokens.push({ kind: 'op', value: op[1]! });
        i += op[1]!.length;
        continue;
      }
      const word = /^[^\s"'(),=!~<>]+/.exec(jql.slice(i));
      if (!word) throw new JqlError(`Error in the JQL Query: the character '${ch}' is a reserved JQL character.`);
      tokens.push({ kind: 'word', value: word[0] });
      i += word[0].length;
    }
  }
  return tokens;
}

const FIELD_ALIASES: Record<string, string> = { issuekey: 'key', type: 'issuetype' };

class Parser {
  private pos = 0;
  constructor(private readonly tokens: Token[]) {}

  private readonly clauses: JqlClause[] = [];

  parse(): JqlQuery {
    const orderBy: JqlOrder[] = [];
    const where = !this.atEnd() && !this.isKeyword('order') ? this.or() : null;
    if (this.isKeyword('order')) {
      this.pos++;
      this.expectKeyword('by');
      do {
        if (this.peek()?.value === ',') this.pos++;
        const field = this.value().toLowerCase();
        let desc = false;
        if (this.isKeyword('asc') || this.isKeyword('desc')) desc = this.next().value.toLowerCase() === 'desc';
        orderBy.push({ field: FIELD_ALIASES[field] ?? field, desc });
      } while (this.peek()?.value === ',');
    }
    if (!this.atEnd()) throw new JqlError(`Error in the JQL Query: Expecting either 'OR' or 'AND' but got '${this.peek()!.value}'.`);
    return { clauses: this.clauses, where, orderBy };
  }

  private or(): JqlExpr {
    const items = [this.and()];
    while (this.isKeyword('or')) {
      this.pos++;
      items.push(this.and());
    }
    return items.length === 1 ? items[0]! : { kind: 'or', items };
  }

  private and(): JqlExpr {
    const items = [this.unary()];
    while (this.isKeyword('and')) {
      this.pos++;
      items.push(this.unary());
    }
    return items.length === 1 ? items[0]! : { kind: 'and', items };
  }

  private unary(): JqlExpr {
    if (this.isKeyword('not')) {
      this.pos++;
      return { kind: 'not', item: this.unary() };
    }
    const token = this.peek();
    if (token?.kind === 'punct' && token.value === '(') {
      this.pos++;
      const inner = this.or();
      if (this.next().value !== ')') throw new JqlError("Error in the JQL Query: Expecting ')' before the end of the query.");
      return inner;
    }
    const clause = this.clause();
    this.clauses.push(clause);
    return clause;
  }

  private clause(): JqlClause {
    const raw = this.next();
    if (raw.kind !== 'word' && raw.kind !== 'string') throw new JqlError(`Error in the JQL Query: expecting a field name but got '${raw.value}'.`);
    const lower = raw.value.toLowerCase();
    const field = FIELD_ALIASES[lower] ?? lower;
    let negated = false;
    if (this.isKeyword('not')) {
      this.pos++;
      negated = true;
    }
    if (this.isKeyword('in')) {
      this.pos++;
      return { kind: 'in', field, negated, values: this.list() };
    }
    if (negated) throw new JqlError("Error in the JQL Query: expecting 'IN' after 'NOT'.");
    const op = this.next();
    if (op.kind !== 'op' || op.value === '!~') throw new JqlError(`Error in the JQL Query: expecting an operator but got '${op.value}'.`);
    return { kind: 'cmp', field, op: op.value as JqlOp, value: this.value() };
  }

  private list(): string[] {
    if (this.next().value !== '(') throw new JqlError("Error in the JQL Query: expecting '(' after IN.");
    const values: string[] = [];
    for (;;) {
      values.push(this.value());
      const sep = this.next();
      if (sep.value === ')') return values;
      if (sep.value !== ',') throw new JqlError(`Error in the JQL Query: expecting ',' or ')' but got '${sep.value}'.`);
    }
  }

  private value(): string {
    const token = this.next();
    if (token.kind !== 'word' && token.kind !== 'string') throw new JqlError(`Error in the JQL Query: expecting a value but got '${token.value}'.`);
    return token.value;
  }

  private next(): Token {
    const token = this.tokens[this.pos++];
    if (!token) throw new JqlError('Error in the JQL Query: the query ended unexpectedly.');
    return token;
  }

  private peek(): Token | undefined {
    return this.tokens[this.pos];
  }

  private atEnd(): boolean {
    return this.pos >= this.tokens.length;
  }

  private isKeyword(word: string): boolean {
    const token = this.peek();
    return token?.kind === 'word' && token.value.toLowerCase() === word;
  }

  private expectKeyword(word: string): void {
    if (!this.isKeyword(word)) throw new JqlError(`Error in the JQL Query: expecting '${word.toUpperCase()}'.`);
    this.pos++;
  }
}

export function parseJql(jql: string): JqlQuery {
  const query = new Parser(tokenize(jql)).parse();
  for (const clause of query.clauses) {
    if (clause.kind === 'cmp' && (clause.field === 'created' || clause.field === 'updated')) parseJqlDate(clause.value, Date.now());
  }
  return query;
}

/** A JQL date value in UTC: absolute ("2026-10-13", "2026/10/13 10:00") or relative to now ("-5d", "-2h", "-30m", "-1w"). */
export function parseJqlDate(value: string, nowMs: number): number {
  const relative = /^([+-]?)(\d+)([wdhm])$/.exec(value.trim());
  if (relative) {
    const unit = { w: 604_800_000, d: 86_400_000, h: 3_600_000, m: 60_000 }[relative[3] as 'w' | 'd' | 'h' | 'm'];
    const sign = relative[1] === '+' ? 1 : relative[1] === '-' ? -1 : 1;
    return nowMs + sign * Number(relative[2]) * unit;
  }
  const absolute = /^(\d{4})[-/](\d{2})[-/](\d{2})(?:\s+(\d{2}):(\d{2}))?$/.exec(value.trim());
  if (!absolute) throw new JqlError(`Error in the JQL Query: date value '${value}' for field is invalid.`);
  const [, y, mo, d, h, mi] = absolute;
  return Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h ?? 0), Number(mi ?? 0));
}

/**
 * Words of a text as Jira's index sees them: lower case, punctuation dropped. A combining mark stays in its
 * word (Lucene's tokenizer follows UAX #29) and nothing is normalized: «ё» and «е» + U+0308 are other words,
 * so a phrase finds only the spelling it is written in, as in Jira.
 */
function words(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}]+/gu, ' ').trim();
}

/** Case-insensitive text match on words: a phrase in quotes must appear as a word sequence; otherwise every word must appear. */
export function textMatches(haystack: string, query: string): boolean {
  const text = ` ${words(haystack)} `;
  const trimmed = query.trim();
  const phrase = /^"(.*)"$/s.exec(trimmed);
  if (phrase) return text.includes(` ${words(phrase[1]!)} `);
  return words(trimmed).split(' ').filter(Boolean).every((word) => text.includes(word));
}
