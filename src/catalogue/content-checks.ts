/** Jira's limits on what a command carries (SPEC 16.2), which need no catalogue. Pure. */
import type { CommandType, Finding } from '@jira-hub/contracts';
import { hasLineBreak, isCalendarDate, SUMMARY_LINE_BREAK } from '@jira-hub/contracts/catalogue';
import { shownText } from '../common/index.js';

/** One command while the checks run: its stored params take shape, findings and notes gather. */
export interface CommandCheck {
  seq: number;
  type: CommandType;
  params: Record<string, unknown>;
  findings: Finding[];
  notes: string[];
  /** why the verdict can only be `unknown` (Russian) */
  unknown: string[];
  /** permissions the command needs beyond its type's (a transition that sets the resolution: RESOLVE_ISSUES) */
  needs?: string[];
  /** params the command does not take at all (findings of their own): the rest is judged without them */
  unknownParams?: string[];
}

/**
 * Jira's limits. The command schemas of @jira-hub/contracts/commands state the same numbers to the assistant
 * (a table test keeps them equal); that module is not imported here because it brings zod into the start.
 */
export const SUMMARY_MAX = 255;
export const TEXT_MAX = 32_767;
export const LABEL_MAX = 255;

export function addFinding(c: CommandCheck, param: string, code: string, detail: string, suggestion?: string): void {
  c.findings.push({ seq: c.seq, param, code, detail, ...(suggestion ? { suggestion } : {}) });
}

/** Characters as Jira counts them: a Java string's length, in UTF-16 units (an emoji counts two). */
const length = (s: string) => s.length;
/** «304 символов, а Jira принимает не больше 255»; where the counts differ, it says why the number is larger than what a person sees. */
const overBy = (s: string, max: number) =>
  `${[...s].length === s.length ? `${s.length} символов` : `${s.length} знаков, как их считает Jira (эмодзи — за два)`}, а Jira принимает не больше ${max}`;

function checkText(c: CommandCheck, param: string, value: unknown, max: number): void {
  if (typeof value !== 'string' || length(value) <= max) return;
  addFinding(c, param, 'too_long', overBy(value, max), `сократите текст до ${max} символов`);
}

/** A summary: one line (Jira answers 400 to a line break), within Jira's limit. */
function checkSummary(c: CommandCheck, param: string, value: unknown): void {
  if (typeof value === 'string' && hasLineBreak(value)) addFinding(c, param, 'summary_line_break', SUMMARY_LINE_BREAK, 'запишите тему одной строкой, а подробности — в описание');
  checkText(c, param, value, SUMMARY_MAX);
}

function checkLabels(c: CommandCheck, param: string, value: unknown): void {
  if (!Array.isArray(value)) return;
  for (const label of value) {
    if (typeof label !== 'string') continue;
    if (label === '') {
      addFinding(c, param, 'bad_label', 'пустая метка: Jira не принимает пустую метку', 'уберите пустую метку из списка');
    } else if (/\s/.test(label)) {
      const fixed = label.trim().replace(/\s+/g, '_');
      addFinding(c, param, 'bad_label', `метка «${shownText(label)}» содержит пробелы: Jira не принимает метки с пробелами`, fixed ? `может быть, ${shownText(fixed)}?` : 'уберите её из списка');
    } else if (length(label) > LABEL_MAX) {
      addFinding(c, param, 'too_long', `метка длиной ${overBy(label, LABEL_MAX)}`, `сократите метку до ${LABEL_MAX} символов`);
    }
  }
}

/**
 * Jira's own names of the fields whose values are checked here, as a project without a catalogue names
 * them (a catalogue gives each project's names): the agent sets a field given by its name too.
 */
const JIRA_NAMES: Record<string, string> = { summary: 'summary', labels: 'labels', 'due date': 'duedate' };

/** A field's id as far as the checks can tell: the catalogue's, else Jira's default English name, else the name as given. */
export type FieldIdOf = (name: string) => string;
export const byJiraName: FieldIdOf = (name) => JIRA_NAMES[name.trim().toLowerCase()] ?? name;

/** Summary, texts, labels and dates of the command's fields (by id or by Jira's name), wherever the command carries them. */
function checkFieldValues(c: CommandCheck, fields: Record<string, unknown>, prefix: string, idOf: FieldIdOf): void {
  for (const [name, value] of Object.entries(fields)) {
    const param = `${prefix}${name}`;
    const id = idOf(name);
    if (id === 'summary') checkSummary(c, param, value);
    else if (id === 'labels') checkLabels(c, param, value);
    else if (id === 'duedate' && typeof value === 'string' && !isCalendarDate(value)) addFinding(c, param, 'bad_date', `«${shownText(value)}» — не настоящая дата ГГГГ-ММ-ДД`, 'дата вида 2026-12-20, которая есть в календаре');
    else checkText(c, param, value, TEXT_MAX);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function checkContent(c: CommandCheck, idOf: FieldIdOf = byJiraName): void {
  const p = c.params;
  if (c.type === 'ensure_issue') {
    checkSummary(c, 'summary', p.summary);
    checkText(c, 'description', p.description, TEXT_MAX);
    if (isObject(p.fields)) checkFieldValues(c, p.fields, 'fields.', idOf);
  } else if (c.type === 'ensure_fields') {
    checkFieldValues(c, Object.fromEntries(Object.entries(p).filter(([k]) => k !== 'key')), '', idOf);
  } else if (c.type === 'ensure_comment') {
    checkText(c, 'body', p.body, TEXT_MAX);
    checkText(c, 'marker', p.marker, TEXT_MAX);
  } else if (c.type === 'delete_issue') {
    checkSummary(c, 'summary', p.summary);
  }
}
