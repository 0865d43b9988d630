/**
 * Answers sized for a model (pure): every string in the data cut to STRING_CAP characters, and the text
 * with the data under ANSWER_CAP characters (about 25,000 tokens of Russian). The answer's own list
 * (ToolAnswer.list) keeps as many of its first items as fit, its text rendered again for them and a page's
 * next_offset right after the last item kept; the largest collection of the data — a list, or an object of many like
 * entries (a batch's changes by issue) — is halved until the answer fits; a text still too long is cut at
 * a line. Each cut says how many items are shown and where the rest is (ToolAnswer.rest, for a tool
 * without paging a REST route or a dashboard page). An error answer carries its detail twice (the text
 * and the data's `detail`): DETAIL_CAP keeps both under the same cap, its list of findings cut at a
 * finding with a note of how many there are.
 */
import { clip } from '../common/index.js';
import { closeCutFence } from './fence.js';
import type { ToolAnswer } from './tool.js';

/** Characters of text and JSON data together: Russian runs at roughly 2.5 characters a token. */
export const ANSWER_CAP = 60_000;
/** The longest string the data carries as it is. */
export const STRING_CAP = 2_000;

/** The longest detail of an error answer: twice that, with the rest of the answer, stays under ANSWER_CAP. */
export const DETAIL_CAP = Math.floor(ANSWER_CAP / 2) - 5_000;

/** Where the rest is when the tool does not say (ToolAnswer.rest). */
const NARROW = 'сузьте запрос';
const LIMITED = 'ответ ограничен по размеру';
/** What the notes of the cuts may take: once something is cut, the rest fits under the cap less this. */
const NOTE_ROOM = 2_000;

function clipStrings(value: unknown, max: number): unknown {
  if (typeof value === 'string') return clip(value, max);
  if (Array.isArray(value)) return value.map((v) => clipStrings(v, max));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clipStrings(v, max)]));
  return value;
}

const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/**
 * What can be cut: a list of more than one item, or an object (not the answer itself) of more than one
 * entry all of one kind — a record keyed by data (changes by issue, created keys), not a view's fields.
 */
function cuttable(v: unknown, root: boolean): v is unknown[] | Record<string, unknown> {
  if (Array.isArray(v)) return v.length > 1;
  if (root || !v || typeof v !== 'object') return false;
  const values = Object.values(v);
  return values.length > 1 && values.every((x) => kind(x) === kind(values[0]));
}

interface Collection {
  holder: Record<string, unknown>;
  key: string;
  /** the key's path in the data, as the notes name it (batch.commands) */
  path: string;
  size: number;
}

/** The largest cuttable collection in `value` (by its JSON). */
function largestCollection(value: Record<string, unknown>): Collection | null {
  let best: Collection | null = null;
  const walk = (v: unknown, path: string) => {
    if (!v || typeof v !== 'object') return;
    for (const [k, child] of Object.entries(v)) {
      const at = Array.isArray(v) ? path : path ? `${path}.${k}` : k;
      if (cuttable(child, false)) {
        const size = JSON.stringify(child).length;
        if (!best || size > best.size) best = { holder: v as Record<string, unknown>, key: k, path: at, size };
      }
      if (child && typeof child === 'object') walk(child, at);
    }
  };
  walk(value, '');
  return best;
}

const half = <T>(v: T[] | Record<string, T>): T[] | Record<string, T> => {
  if (Array.isArray(v)) return v.slice(0, Math.floor(v.length / 2));
  const entries = Object.entries(v);
  return Object.fromEntries(entries.slice(0, Math.floor(entries.length / 2)));
};
/** The list's items in proportion to what must go (at least one fewer, at least one kept): as many as fit. */
const fewer = (n: number, share: number) => Math.max(1, Math.min(n - 1, Math.floor(n * share)));
const count = (v: unknown) => (Array.isArray(v) ? v.length : Object.keys(v as object).length);

/**
 * «5000 (ответ ограничен по размеру)», or counted against the whole when the hub's view itself holds only
 * the first `held` of `total` items: «33000 (ответ ограничен по размеру; ответ хаба перечисляет только первые 5000)».
 */
const ofWhole = (held: number, total?: number) =>
  total !== undefined && total > held ? `${total} (${LIMITED}; ответ хаба перечисляет только первые ${held})` : `${held} (${LIMITED})`;

export function fitAnswer(answer: ToolAnswer, cap = ANSWER_CAP): ToolAnswer {
  const data = clipStrings(answer.data, STRING_CAP) as Record<string, unknown>;
  const rest = answer.rest ?? NARROW;
  const list = answer.list;
  const items = list && Array.isArray(data[list.key]) ? (data[list.key] as unknown[]) : null;
  let text = answer.text;
  let kept = items?.length ?? 0;
  /** the answer's list down to its first `n` items, in the data and the text alike */
  const keep = (n: number) => {
    kept = n;
    data[list!.key] = items!.slice(0, n);
    if (list!.page) {
      const end = list!.page.offset + n;
      data.next_offset = end < list!.page.total ? end : null;
    }
    if (list!.after) Object.assign(data, list!.after(n));
    text = list!.text(n);
  };
  /** the other collections cut: path → entries before and after */
  const cuts = new Map<string, { from: number; to: number }>();
  // The text as it travels (JSON, its quotes and line breaks escaped), as a client counts it.
  const size = () => JSON.stringify(text).length + JSON.stringify(data).length;
  let textCut = false;
  const over = () => size() > (cuts.size || textCut || (items && kept < items.length) ? cap - NOTE_ROOM : cap);
  const textCap = Math.floor(cap / 2);
  // A long text is the list's lines: fewer items rather than a cut through them.
  while (items && kept > 1 && text.length > textCap) keep(fewer(kept, textCap / text.length));
  /** the text cut at a line under `room` characters — or inside a line, when a cut at a line would drop more than half of the room */
  const cutText = (room: number) => {
    const cut = text.lastIndexOf('\n', room);
    text = closeCutFence(cut > room / 2 ? text.slice(0, cut) : clip(text, room));
    textCut = true;
  };
  if (text.length > textCap) cutText(textCap);
  for (let collection = largestCollection(data); over() && collection; collection = largestCollection(data)) {
    const { holder, key, path } = collection;
    if (items && holder === data && key === list!.key) {
      keep(fewer(kept, (cap - NOTE_ROOM) / size()));
      continue;
    }
    const from = cuts.get(path)?.from ?? count(holder[key]);
    holder[key] = half(holder[key] as unknown[]);
    cuts.set(path, { from, to: count(holder[key]) });
  }
  const notes: string[] = [];
  if (items && kept < items.length) {
    const page = list!.page;
    const end = page ? page.offset + kept : kept;
    notes.push(
      page
        ? `Список ${list!.key} сокращён до ${kept} из ${items.length} запрошенных (${LIMITED})${end < page.total ? `; дальше — тот же вызов с offset: ${end}` : ''}.`
        : `Список ${list!.key} сокращён: показаны первые ${kept} из ${ofWhole(items.length, list!.total)}; ${rest}.`,
    );
  }
  // Nothing left to cut in the data: the text gives way.
  if (over()) cutText(Math.max(0, cap - NOTE_ROOM - JSON.stringify(data).length));
  if (textCut) notes.push(`Текст ответа сокращён до ${text.length} символов (${LIMITED}); ${rest}.`);
  for (const [path, { from, to }] of cuts) notes.push(`В данных ${path} сокращено: оставлено ${to} из ${ofWhole(from, answer.totals?.[path])}; ${rest}.`);
  return { text: [text, ...notes].join('\n'), data };
}

/** What one UTF-16 unit takes in JSON: a quote or a backslash two, a control character two or six. */
function jsonCost(code: number): number {
  if (code === 0x22 || code === 0x5c) return 2;
  if (code >= 0x20) return 1;
  return code === 0x08 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d ? 2 : 6;
}

/** The characters `text` takes inside a JSON string, as a client counts the answer. */
function jsonLength(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) n += jsonCost(text.charCodeAt(i));
  return n;
}

/** How many of `text`'s first UTF-16 units fit in `room` characters of JSON. */
function unitsWithin(text: string, room: number): number {
  let used = 0;
  for (let i = 0; i < text.length; i++) {
    used += jsonCost(text.charCodeAt(i));
    if (used > room) return i;
  }
  return text.length;
}

/**
 * An error's detail cut to `cap` characters as JSON carries it (a quote or a backslash counts twice). The
 * hub and the argument checks write one finding after another, joined by «; »: a long detail is cut at
 * such a joint and says how many findings there are in all (`total`, when known) and `how` to see the
 * rest. `quote` shows the findings (fenced when they carry Jira's text); the note of the cut stays outside.
 */
export function fitDetail(detail: string, how: string, total?: number, cap = DETAIL_CAP, quote: (text: string) => string = (text) => text): string {
  const whole = quote(detail);
  if (jsonLength(whole) <= cap) return whole;
  // The note of the cut comes on top: DETAIL_CAP leaves room for it.
  const end = unitsWithin(detail, Math.max(0, cap - jsonLength(quote(''))));
  const joint = detail.lastIndexOf('; ', end);
  if (joint <= 0) return `${quote(clip(detail, end))}; ${how}.`;
  const all = total && total > 1 ? `Замечаний всего: ${total}, показаны первые` : 'Показаны не все замечания';
  return `${quote(detail.slice(0, joint))}; … ${all} (ответ ограничен по размеру); ${how}.`;
}
