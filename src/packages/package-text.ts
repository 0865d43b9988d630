/** Plans, applies and drift of planning packages in words for a person (Russian): the API's `text`, the CLI, the MCP tools. Pure. */
import { ageText, BATCH_STATUS_WORDS, changeText, MAX_COMMANDS, shownValue, valueText, type Quote } from '../queue/index.js';
import type { FindingView } from '../common/index.js';
import { plural, refreshWords, TAIL_REFRESH_WORDS } from '@jira-hub/contracts/russian';
import type { PlanView } from '../queue/index.js';
import { findingsCutText } from './listed-findings.js';
import type { ApplyView, DriftView, MirrorAgeView, PackageFindingView, PackagePlanView } from './package.view.js';

/** Shows text that came from Jira or the package's cells: as it is for a terminal; an MCP answer fences it as data. */
export type { Quote };
const asIs: Quote = (text) => text;

const where = (f: { file: string; row: number; column?: string }) => `${f.file}, строка ${f.row}${f.column ? `, «${f.column}»` : ''}`;

export function mirrorText(m: MirrorAgeView): string {
  if (m.keys.length === 0 && m.missing_keys.length === 0 && m.gone_keys.length === 0) return 'Задач Jira в пакете нет: с зеркалом сравнивать нечего.';
  const age = m.age_seconds === null ? '' : `, самые старые данные — ${ageText(m.age_seconds)} назад`;
  const missing = m.missing_keys.length ? `; нет в зеркале: ${m.missing_keys.join(', ')}` : '';
  const gone = m.gone_keys.length ? `; в Jira больше нет: ${m.gone_keys.join(', ')}` : '';
  return `Сравнено с зеркалом задач: ${m.keys.length}${age}${missing}${gone}.`;
}

/** «AURORA-5, AURORA-9» — the first ten keys, the rest counted. */
export const keyList = (keys: readonly string[]) => (keys.length > 10 ? `${keys.slice(0, 10).join(', ')} и ещё ${keys.length - 10}` : keys.join(', '));

/** Why there is nothing to submit while Jira was not compared whole: keys the mirror lacks (refresh them first), keys gone from Jira. */
const notCompared = (missing: readonly string[], gone: readonly string[] = []) =>
  [
    `Команд нет, но сравнить с Jira удалось не всё:`,
    missing.length ? ` задач ${keyList(missing)} нет в зеркале хаба — обновите их в зеркале и постройте план снова.` : '',
    gone.length ? ` задач ${keyList(gone)} в Jira больше нет (удалены или перенесены) — уберите их строки из пакета.` : '',
  ].join('');

/** What the commands of a package's plan change, in words, for the counts of its summary. */
const CHANGE_WORDS: Record<string, string> = {
  ensure_issue: 'новые задачи',
  ensure_fields: 'поля',
  ensure_status: 'статусы',
  ensure_link: 'связи',
  ensure_sprint: 'спринты',
};

/** The fewest parts a plan of `commands` commands splits into that each fit one batch (SPEC 5). */
export const partsOf = (commands: number) => Math.ceil(commands / MAX_COMMANDS);

/**
 * Why a plan of more commands than one batch may hold cannot be applied, and what to do: the plan's text
 * and apply's refusal (422) say the same (decision 1450).
 */
export function overCapText(commands: number): string {
  const parts = partsOf(commands);
  return (
    `план пакета — ${commands} ${plural(commands, 'команда', 'команды', 'команд')}, а в одном пакете команд их может быть не больше ${MAX_COMMANDS}: применить его одним пакетом команд нельзя. ` +
    `Разделите строки файлов пакета хотя бы на ${parts} ${plural(parts, 'часть', 'части', 'частей')} (в каждой — не больше ${MAX_COMMANDS} команд; какая строка какие команды даёт, видно в плане) ` +
    'и применяйте части по очереди, следующую — когда выполнен пакет команд предыдущей: новые задачи предыдущей части она найдёт по их временным ключам'
  );
}

/** The first line of a plan: how many changes, or that Jira already matches; and whether apply would be refused. */
export function planSummary(
  p: Pick<PackagePlanView, 'commands' | 'findings' | 'temp_keys' | 'mirror'> & Partial<Pick<PackagePlanView, 'findings_total'>> & { dry_run?: Pick<PlanView, 'ok' | 'findings'> | null; over_cap?: Pick<NonNullable<PackagePlanView['over_cap']>, 'listed'> | null },
): string {
  const findings = findingsCount(p);
  const earlier = p.temp_keys.length
    ? ` Временные ключи, которые хаб уже создавал: ${p.temp_keys.map((t) => `${t.temp_key} — ${t.key}`).join(', ')}; их строки сравниваются с этими задачами и меняют их (для новой задачи дайте строке новый временный ключ).`
    : '';
  const gone = p.mirror.gone_keys;
  if (p.commands.length === 0) return `${p.mirror.missing_keys.length || gone.length ? notCompared(p.mirror.missing_keys, gone) : 'Jira уже соответствует пакету: менять нечего.'}${findings}${earlier}`;
  const byType = new Map<string, number>();
  for (const c of p.commands) byType.set(c.type, (byType.get(c.type) ?? 0) + 1);
  const refused = p.dry_run && !p.dry_run.ok ? ` ${refusedText(p.dry_run.findings.length)}` : '';
  const n = p.commands.length;
  const overCap = p.over_cap
    ? ` ${capitalised(overCapText(n))}. Сухой прогон и проверку по каталогу Jira хаб делает для пакета команд, который можно отправить, — в плане каждой части.${p.over_cap.listed < n ? ` Показаны первые ${p.over_cap.listed} команд из ${n}.` : ''}`
    : '';
  return `Изменений: ${n} (${[...byType].map(([t, k]) => `${CHANGE_WORDS[t] ?? t}: ${k}`).join(', ')}).${findings}${earlier}${refused}${overCap}`;
}

/** « Замечаний: 1200 (показаны первые 1000 из 1200 замечаний).» — the whole count, and the cut of the list if any. */
function findingsCount(p: Pick<PackagePlanView, 'findings'> & { findings_total?: number }): string {
  const total = p.findings_total ?? p.findings.length;
  const cut = findingsCutText(p.findings.length, total);
  return total ? ` Замечаний: ${total}${cut ? ` (${cut})` : ''}.` : '';
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * A finding of the checks (SPEC 16.2) in a plan's words: «link_type: типа связи … → одно из: …». `quote`
 * shows its detail and suggestion, which name Jira's catalogue; the param and the arrow are the hub's.
 */
const checkFindingText = (f: FindingView, quote: Quote = asIs) => `${f.param}: ${quote(f.detail)}${f.suggestion ? ` → ${quote(f.suggestion)}` : ''}`;

const refusedText = (n: number) =>
  `Применить пакет нельзя: проверка по каталогу Jira нашла ошибки (${n}, отмечены ✗) — хаб откажет (422), пока их не исправить в файлах пакета.`;

/**
 * A finding's words with its reference to another command of the batch («как в шаге 3», the duplicate
 * summary's words in catalogue/checks.ts) put as the file and row that command comes from: a person
 * editing the files never saw the batch's numbers.
 */
export function detailInFiles(detail: string, commands: readonly { seq: number; file: string; row: number }[]): string {
  return detail.replace(/как в шаге (\d+)/g, (text, n: string) => {
    const from = commands.find((c) => c.seq === Number(n));
    return from?.file ? `как в ${from.file}, строка ${from.row}` : text;
  });
}

/**
 * The refusal of an apply (422), its findings located in the package: «links.csv, строка 3: link_type: …»
 * instead of «шаг 5: …», a number the person never saw in the files.
 */
export function refusalInFiles(findings: readonly FindingView[], commands: readonly { seq: number; file: string; row: number; column?: string }[]): string {
  const lines = findings.map((f) => {
    const from = commands.find((c) => c.seq === f.seq);
    return `${from ? where(from) : `шаг ${f.seq}`}: ${detailInFiles(checkFindingText(f), commands)}`;
  });
  return `план пакета не пройдёт в Jira: ${lines.join('; ')}`;
}


const findingLines = (findings: PackageFindingView[], quote: Quote) => findings.map((f) => `  ! ${where(f)}: ${quote(f.detail)}`);

/** The whole plan for a terminal or a model (`quote`: how values from Jira and the cells are shown). */
export function planText(p: PackagePlanView, quote: Quote = asIs, withSummary = true): string {
  const lines = [...(withSummary ? [p.text] : []), mirrorText(p.mirror)];
  if (p.refresh && (p.mirror.age_seconds ?? 0) > 0) lines.push(`Чтобы сравнить со свежими данными, сначала отправьте команду «${refreshWords(p.refresh.params.keys.length)}» и постройте план снова.`);
  for (const c of p.commands) {
    const changes = c.changes.map((change) => changeText(change, quote)).join('; ');
    // The checks' findings (SPEC 16.2) under their command: apply would be refused for each of them. The dry
    // run's verdict for such a command («не проверить заранее: см. замечания проверки») would only point at them.
    const found = p.dry_run?.commands[c.seq - 1]?.findings ?? [];
    const verdict = found.length ? `Jira откажет: ошибок ${found.length}, см. ниже` : c.verdict_text && quote(c.verdict_text);
    lines.push(`  ${c.seq}. ${c.type} ${quote(JSON.stringify(c.params))} — ${where(c)}${changes ? `: ${changes}` : ''}${verdict ? ` [${verdict}]` : ''}`);
    for (const f of found) lines.push(`     ✗ ${checkFindingText(f, quote)}`);
  }
  if (p.findings.length) {
    const cut = findingsCutText(p.findings.length, p.findings_total ?? p.findings.length);
    lines.push('Замечания:', ...findingLines(p.findings, quote), ...(cut ? [`  ${capitalised(cut)}.`] : []));
  }
  if (p.dry_run && !p.dry_run.ok) lines.push(refusedText(p.dry_run.findings.length));
  else if (p.dry_run) lines.push(p.dry_run.awaiting_approval ? 'После отправки пакет будет ждать одобрения человека.' : 'После отправки пакет сразу встанет в очередь.');
  return lines.join('\n');
}

/**
 * The plan under an apply's text (the CLI's and MCP's answers): without its first line when nothing was
 * submitted, since applyText already says why (Jira matches, or what could not be compared).
 */
export const appliedPlanText = (a: Pick<ApplyView, 'batch' | 'plan'>, quote: Quote = asIs): string | undefined => (a.plan ? planText(a.plan, quote, a.batch !== null) : undefined);

export function applyText(a: Pick<ApplyView, 'package' | 'batch' | 'replayed'> & { plan?: Pick<PackagePlanView, 'mirror'> | null }): string {
  if (!a.batch) {
    const missing = a.plan?.mirror.missing_keys ?? [];
    const gone = a.plan?.mirror.gone_keys ?? [];
    return `Пакет #${a.package.id} «${a.package.name}» сохранён${missing.length || gone.length ? `. ${notCompared(missing, gone)}` : '; Jira уже ему соответствует — отправлять нечего.'}`;
  }
  const state = BATCH_STATUS_WORDS[a.batch.status];
  const commands = a.batch.commands.length - 1; // the tail refresh aside
  if (a.replayed) return `Эти же файлы уже применены: пакет #${a.package.id}, пакет команд #${a.batch.id} ещё выполняется (${state}).`;
  return `Пакет #${a.package.id} «${a.package.name}» сохранён, пакет команд #${a.batch.id} ${state}: команд ${commands} и ${TAIL_REFRESH_WORDS}.`;
}

/** Fields of an existing issue no command of the hub changes (the plan names them as findings). */
const MANUAL_FIELDS = new Set(['issue_type', 'parent']);

/** How a person applies a package again: the CLI with its folder, or the dashboard's button. */
const APPLY_AGAIN = 'jira-hub apply <папка> (или «Вернуть к пакету» на панели)';

/** `applyAgain`: how the reader applies the package again (an assistant: its own tool, not a folder it has not). */
export function driftText(
  d: Pick<DriftView, 'package' | 'fields' | 'links' | 'matches'> & Partial<Pick<DriftView, 'batch_status' | 'mirror' | 'findings_total'>> & { findings?: readonly unknown[] },
  quote: Quote = asIs,
  applyAgain = APPLY_AGAIN,
): string {
  // The answer's findings are the first ones only (listed-findings.ts): the text says so.
  const cut = d.findings && d.findings_total !== undefined ? findingsCutText(d.findings.length, d.findings_total) : '';
  return [driftBody(d, quote, applyAgain), ...(cut ? [`Замечаний к пакету: ${d.findings_total}, ${cut}.`] : [])].join('\n');
}

function driftBody(d: Parameters<typeof driftText>[0], quote: Quote, applyAgain: string): string {
  if (d.matches) return `Jira соответствует пакету #${d.package.id} «${d.package.name}»: расхождений нет.`;
  const missing = d.mirror?.missing_keys ?? [];
  const gone = d.mirror?.gone_keys ?? [];
  const settled = !d.batch_status || d.batch_status === 'done';
  if (d.fields.length === 0 && d.links.length === 0 && gone.length && missing.length === 0 && settled) {
    return `Jira отошла от пакета #${d.package.id} «${d.package.name}»: задач ${keyList(gone)} в Jira больше нет (удалены или перенесены в другой проект) — уберите их строки из пакета или создайте задачи заново; остальное совпадает.`;
  }
  if (d.fields.length === 0 && d.links.length === 0 && missing.length && settled) {
    return `Пакет #${d.package.id} «${d.package.name}» не сравнить с Jira целиком: задач ${keyList(missing)} нет в зеркале хаба — обновите их в зеркале или, если их удалили в Jira, уберите их строки из пакета; остальное совпадает.`;
  }
  const fields = d.fields.map((f) => `  ${f.jira_key ?? f.key} ${f.field}: в пакете ${valueText(f.field, f.wanted, quote)}, в Jira ${valueText(f.field, f.actual, quote)} (issues.csv, строка ${f.row})`);
  const links = d.links.map((l) => `  связь ${l.source} ${quote(l.link_type)} ${l.target}: ${l.state === 'missing' ? 'нет в Jira' : 'в Jira в обратную сторону'} (links.csv, строка ${l.row})`);
  const counts = `полей ${d.fields.length}, связей ${d.links.length}`;
  // An existing issue's type and parent are never changed by the hub: applying again cannot settle them.
  const manual = d.fields.filter((f) => MANUAL_FIELDS.has(f.field));
  const settles = manual.length < d.fields.length || d.links.length > 0;
  const back = settles ? ` Вернуть: ${applyAgain}.` : '';
  const byHand = manual.length ? [`Тип и родителя существующей задачи хаб не меняет (${keyList([...new Set(manual.map((f) => f.jira_key ?? f.key))])}): поменяйте их в Jira вручную или в пакете.`] : [];
  // A package whose batch has not run (or never will) is not applied yet: Jira has not moved away from it.
  const batch = d.package.batch_id;
  const head =
    d.batch_status === 'awaiting_approval'
      ? `Пакет #${d.package.id} «${d.package.name}» ещё не применён: его пакет команд #${batch} ждёт одобрения. До тех пор Jira отличается от него: ${counts}.`
      : d.batch_status === 'queued' || d.batch_status === 'running'
        ? `Пакет #${d.package.id} «${d.package.name}» применяется: пакет команд #${batch} ещё выполняется. Пока Jira отличается от него: ${counts}.`
        : d.batch_status === 'cancelled'
          ? `Пакет #${d.package.id} «${d.package.name}» применён не до конца или не применён: его пакет команд #${batch} отменён или отклонён. Jira отличается от него: ${counts}.${settles ? ` Применить: ${applyAgain}.` : ''}`
          : `Jira отошла от пакета #${d.package.id} «${d.package.name}»: ${counts}.${back}`;
  // Issues gone from Jira are no field or link to show, but a difference all the same.
  const goneLine = gone.length ? [`Задач ${keyList(gone)} в Jira больше нет (удалены или перенесены): уберите их строки из пакета или создайте задачи заново.`] : [];
  const missingLine = missing.length ? [`Задач ${keyList(missing)} нет в зеркале хаба: обновите их в зеркале, чтобы сравнить.`] : [];
  return [head, ...fields, ...links, ...byHand, ...goneLine, ...missingLine].join('\n');
}
