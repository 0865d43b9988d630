import { Injectable, PipeTransform } from '@nestjs/common';
import { ValidationFailedError } from './errors.js';
import { isJiraKey, isTempKey } from './keys.js';

/** A value as a message shows it: control characters (U+0000 among them) escaped as `\u0000`. */
const shown = (value: string): string => value.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

function refuse(detail: string): never {
  throw new ValidationFailedError(`key: ${detail}`, [{ field: 'key', detail }]);
}

/**
 * A key in a path (`/issues/{key}`, `/notes/{key}`): a Jira key or a temp key, or else 422 naming `key`,
 * before any service or SQL sees it — so text neither database can hold (U+0000 fails PostgreSQL's
 * UTF-8) is refused alike on both engines (decision 0105).
 */
@Injectable()
export class KeyPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!isJiraKey(value) && !isTempKey(value)) refuse(`«${shown(value)}» — не ключ Jira (ABC-123) и не временный ключ (new:N)`);
    return value;
  }
}

/** A Jira key in a path (`/issues/{key}/changes`: only Jira keys have changes), or else 422 naming `key`. */
@Injectable()
export class JiraKeyPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!isJiraKey(value)) refuse(`«${shown(value)}» — нужен ключ Jira вида AURORA-123`);
    return value;
  }
}
