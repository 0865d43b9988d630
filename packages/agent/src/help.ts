import { AGENT_VARIABLES, variablesHelp } from './variables.js';

/** `jira-hub-agent --help` (Russian: a text for people). */
export function agentHelp(): string {
  return [
    'Запуск: jira-hub-agent [параметры]',
    '',
    'Эталонный агент Jira Hub: берёт команды у хаба и выполняет их в Jira в человеческом темпе (до SIGINT/SIGTERM).',
    '',
    'Параметры:',
    '  --once       обработать одну выдачу и остановиться (вместо AGENT_ONCE=1)',
    '  --check      только проверить подключение к хабу и Jira (список ✓/✗), ничего не меняя; код выхода 1 при любом ✗',
    '  -h, --help   показать справку',
    variablesHelp(AGENT_VARIABLES),
  ].join('\n');
}
