/**
 * The notes of the checks (SPEC 16.2) on what the hub stores otherwise than it was written: Russian sentences
 * for people (the dashboard's plan, the API's plan, the MCP's answers), the params named as
 * @jira-hub/contracts/russian names them, Jira's names in «…». Pure.
 */
import { paramWords } from '@jira-hub/contracts/russian';
import { shownText } from '../common/index.js';

/** Statuses as the notes name them: each in «…» (a command's by its first characters: decision 1464), the steps of a path joined by arrows. */
const quoted = (path: readonly string[]) => path.map((s) => `«${shownText(s)}»`).join(' → ');

/**
 * The note of an ensure_status {to} stored as a path: «целевой статус «Done»: путь по статусам «In Progress» →
 * «Done» (из «To Do»)», `why` in the brackets.
 */
export function routeNote(to: string, path: readonly string[], why: string): string {
  return `${paramWords('to')} «${shownText(to)}»: ${paramWords('path')} ${quoted(path)} (${why})`;
}

/** The note of names stored without the spaces around them: «целевой статус записан без пробелов по краям названия: «Done»». */
export function trimmedNote(param: 'to' | 'path' | 'sprint', stored: readonly string[]): string {
  return `${paramWords(param)} записан без пробелов по краям ${param === 'path' ? 'названий' : 'названия'}: ${quoted(stored)}`;
}

/**
 * The note of a path the issue is on already: «задача уже в статусе «Done»: шаги «In Progress» до него агент
 * пропустит» — the agent walks from the place on the path, not back to its first step.
 */
export const skippedStepsNote = (status: string, skipped: readonly string[]) =>
  `задача уже в статусе «${status}»: ${skipped.length === 1 ? 'шаг' : 'шаги'} ${quoted(skipped)} до него агент пропустит`;

/** The note of a link type stored by its Jira name: «тип связи «блокирует» записан как «Blocks»». */
export const linkNote = (given: string, name: string) => `${paramWords('link_type')} «${shownText(given)}» записан как «${name}»`;

/**
 * The note of a link written by its inward description, stored the other way round: «тип связи «is blocked
 * by» записан как «Blocks»: «A-1 is blocked by A-2» — то же, что «A-2 blocks A-1», поэтому концы связи
 * переставлены (откуда — A-2, куда — A-1)». `source` and `target` as they were written.
 */
export function swappedLinkNote(given: string, type: { name: string; inward: string; outward: string }, source: string, target: string): string {
  const same = `«${source} ${type.inward} ${target}» — то же, что «${target} ${type.outward} ${source}»`;
  return `${linkNote(given, type.name)}: ${same}, поэтому концы связи переставлены (${paramWords('source')} — ${target}, ${paramWords('target')} — ${source})`;
}

/** The note of an ensure_sprint {sprint: null}. */
export const BACKLOG_NOTE = `${paramWords('sprint')} не указан — задача уйдёт в бэклог`;
