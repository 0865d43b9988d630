/** The simulator's options and variables, for `--help` (here and in `jira-hub jira-sim --help`). Texts for people: Russian. */
export const SIM_VARIABLES: [name: string, meaning: string][] = [
  ['JIRA_SIM_HOST', 'адрес (по умолчанию 127.0.0.1)'],
  ['JIRA_SIM_PORT', 'порт (по умолчанию 8080; 0 — любой свободный)'],
  ['JIRA_SIM_PROJECT', 'ключ проекта (по умолчанию AURORA)'],
  ['JIRA_SIM_SEED', 'JSON-файл с частями начальных данных взамен стандартных (пример: examples/jira-sim-seed.json)'],
  ['JIRA_SIM_GENERATE', 'сгенерировать проект из N задач (одинаковый при одном N) вместо задач начальных данных'],
  ['JIRA_SIM_SEARCH_LAG_MS', 'задержка, с которой поиск видит изменения'],
  ['JIRA_SIM_LATENCY_MS', 'задержка каждого ответа'],
  ['JIRA_SIM_PAGE_SIZE', 'наибольший размер страницы (по умолчанию 100)'],
];

/** `jira-sim --help`. */
export function simHelp(): string {
  const width = Math.max(...SIM_VARIABLES.map(([name]) => name.length));
  return [
    'Запуск: jira-sim [параметры]',
    '',
    'Симулятор Jira в памяти (Cloud /rest/api/3 и DC /rest/api/2) до SIGINT/SIGTERM.',
    '',
    'Параметры:',
    '  -p, --port <порт>  порт (вместо JIRA_SIM_PORT)',
    '  --seed <файл>      JSON-файл начальных данных (вместо JIRA_SIM_SEED)',
    '  -h, --help         показать справку',
    '',
    'Переменные окружения:',
    ...SIM_VARIABLES.map(([name, meaning]) => `  ${name.padEnd(width)}  ${meaning}`),
  ].join('\n');
}
