/** The environment variables the agent reads, for `--help` (here and in `jira-hub agent --help`). Texts for people: Russian. */
export type Variable = [name: string, meaning: string];

export const AGENT_VARIABLES: Variable[] = [
  ['HUB_URL', 'адрес хаба, например http://127.0.0.1:3000 (обязательно)'],
  ['HUB_AGENT_TOKEN', 'токен агента, если хаб с токенами'],
  ['JIRA_URL', 'базовый адрес Jira без /rest/api/N (обязательно)'],
  ['JIRA_FLAVOR', 'cloud (по умолчанию) или dc'],
  ['JIRA_EMAIL, JIRA_API_TOKEN', 'учётные данные Jira Cloud'],
  ['JIRA_PAT', 'персональный токен Jira Data Center'],
  ['JIRA_PROJECT', 'ключ проекта, где ensure_issue ищет и создаёт задачи (обязательно)'],
  ['AGENT_JOURNAL', 'файл журнала (по умолчанию ./data/agent-journal.jsonl)'],
  ['AGENT_WAIT_SECONDS', 'секунды долгого опроса, 0..60 (по умолчанию 30)'],
  ['AGENT_ONCE', '1 — обработать одну выдачу и остановиться'],
  ['AGENT_REFRESH_PART_ISSUES', 'задач в одной части большого результата refresh (по умолчанию 1000)'],
];

/** The variables as the help's last section: one aligned line each. */
export function variablesHelp(variables: Variable[]): string {
  const width = Math.max(...variables.map(([name]) => name.length));
  return `\nПеременные окружения (и файл .env в текущей папке; переменные оболочки важнее):\n${variables.map(([name, meaning]) => `  ${name.padEnd(width)}  ${meaning}`).join('\n')}`;
}
