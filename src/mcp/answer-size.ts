/**
 * Answers sized for a model (pure): every string in the data cut to STRING_CAP characters, and the text
 * with the data under ANSWER_CAP characters (about 25,000 tokens of Russian) — the longest list in the
 * data halved until it fits, the text cut at a line, each with a note saying how to get the rest. An
 * error answer carries its detail twice (the text and the data's `detail`): DETAIL_CAP keeps both under
 * the same cap, its list of findings cut at a finding with a note of how many there are.
 */
import { clip } from '../common/index.js';
import type { ToolAnswer } from './tool.js';

/** Characters of text and JSON data together: Russian runs at roughly 2.5 characters a token. */
export const ANSWER_CAP = 60_000;
/** The longest string the data carries as it is. */
export const STRING_CAP = 2_000;

/** The longest detail of an error answer: twice that, with the rest of the answer, stays under ANSWER_CAP. */
export const DETAIL_CAP = Math.floor(ANSWER_CAP / 2) - 5_000;

const MORE = 'запросите остальное через offset и limit (или сузьте запрос)';

function clipStrings(value: unknown, max: number): unknown {
  if (typeof value === 'string') return clip(value, max);
  if (Array.isArray(value)) return value.map((v) => clipStrings(v, max));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clipStrings(v, max)]));
  return value;
}

/** The longest array in `value` (by its JSON), with the object that holds it and its key. */
function longestArray(value: unknown): { holder: Record<string, unknown>; key: string; size: number } | null {
  let best: { holder: Record<string, unknown>; key: string; size: number } | null = null;
  const walk = (v: unknown) => {
    if (!v || typeof v !== 'object') return;
    for (const [k, child] of Object.entries(v)) {
      if (Array.isArray(child) && child.length > 1) {
        const size = JSON.stringify(child).length;
        if (!best || size > best.size) best = { holder: v as Record<string, unknown>, key: k, size };
      }
      if (child && typeof child === 'object') walk(child);
    }
  };
  walk(value);
  return best;
}

export function fitAnswer(answer: ToolAnswer, cap = ANSWER_CAP): ToolAnswer {
  const data = clipStrings(answer.data, STRING_CAP) as Record<string, unknown>;
  let text = answer.text;
  const notes: string[] = [];
  const textCap = Math.floor(cap / 2);
  if (text.length > textCap) {
    const cut = text.lastIndexOf('\n', textCap);
    text = text.slice(0, cut > 0 ? cut : textCap);
    notes.push(`Текст ответа сокращён до ${text.length} символов; ${MORE}.`);
  }
  for (let size = JSON.stringify(data).length; text.length + size > cap; size = JSON.stringify(data).length) {
    const longest = longestArray(data);
    if (!longest) break;
    const list = longest.holder[longest.key] as unknown[];
    longest.holder[longest.key] = list.slice(0, Math.floor(list.length / 2));
    const note = `В данных список ${longest.key} сокращён`;
    if (!notes.some((n) => n.startsWith(note))) notes.push(`${note} (было ${list.length}); ${MORE}.`);
  }
  return { text: [text, ...notes].join('\n'), data };
}

/**
 * An error's detail under `cap` characters. The hub and the argument checks write one finding after
 * another, joined by «; »: a long detail is cut at such a joint and says how many findings there are in
 * all (`total`, when known) and `how` to see the rest.
 */
export function fitDetail(detail: string, how: string, total?: number, cap = DETAIL_CAP): string {
  if (detail.length <= cap) return detail;
  const joint = detail.lastIndexOf('; ', cap);
  if (joint <= 0) return `${clip(detail, cap)}; ${how}.`;
  const all = total && total > 1 ? `Замечаний всего: ${total}, показаны первые` : 'Показаны не все замечания';
  return `${detail.slice(0, joint)}; … ${all} (ответ ограничен по размеру); ${how}.`;
}
