import { describe, expect, it } from '@jest/globals';
import { describeConnectFailure } from './postgres.js';

const URL = 'postgres://hub:secret@db.example:5432/hub';

describe('describeConnectFailure: one Russian line about a server that refused the hub at start-up', () => {
  it.each([
    [{ code: '28P01', message: 'password authentication failed for user "hub"' }, 'сервер не принял пользователя или пароль'],
    [{ code: '3D000', message: 'database "hub" does not exist' }, 'такой базы данных нет'],
    [{ code: 'ENOTFOUND', message: 'getaddrinfo ENOTFOUND db.example' }, 'имя сервера не находится в DNS'],
    [{ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' }, 'на этом адресе и порту никто не слушает'],
    [new Error('The server does not support SSL connections'), 'сервер не принимает SSL-соединения: включите SSL на сервере или уберите sslmode из адреса'],
    [Object.assign(new Error('self-signed certificate in certificate chain'), { code: 'SELF_SIGNED_CERT_IN_CHAIN' }), 'сертификат сервера не прошёл проверку (SELF_SIGNED_CERT_IN_CHAIN): укажите его корневой сертификат (sslrootcert=<файл> в адресе) или имя, на которое он выписан'],
    [Object.assign(new Error("Hostname/IP does not match certificate's altnames"), { code: 'ERR_TLS_CERT_ALTNAME_INVALID' }), 'сертификат сервера не прошёл проверку (ERR_TLS_CERT_ALTNAME_INVALID): укажите его корневой сертификат (sslrootcert=<файл> в адресе) или имя, на которое он выписан'],
    [{ code: 'XX000', message: 'something new' }, 'something new'],
  ])('%o → «%s», the password hidden', (err, reason) => {
    expect(describeConnectFailure(URL, err)).toBe(`не удаётся подключиться к PostgreSQL postgres://hub:***@db.example:5432/hub: ${reason}`);
  });
});
