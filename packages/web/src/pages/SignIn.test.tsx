import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError, token } from '../api';
import { SignIn } from './SignIn';

describe('SignIn', () => {
  it.each([
    [new ApiError(403, 'forbidden', 'этот маршрут доступен только с токеном клиента'), 'Это не токен клиента'],
    [new ApiError(401, 'unauthorized', 'токен не подошёл'), 'Токен не подошёл'],
  ])('refuses with a clear message (%s)', async (error, text) => {
    render(
      <SignIn
        check={async () => {
          throw error;
        }}
      />,
    );
    fireEvent.change(screen.getByLabelText('Токен клиента'), { target: { value: 'agent-secret' } });
    fireEvent.click(screen.getByRole('button', { name: 'Войти' }));
    expect((await screen.findByRole('alert')).textContent).toContain(text);
    expect(token.get()).toBeNull(); // a refused token is not kept
  });

  it('keeps the accepted token for this tab', async () => {
    let checked = '';
    render(<SignIn check={async () => void (checked = token.get() ?? '')} />);
    fireEvent.change(screen.getByLabelText('Токен клиента'), { target: { value: ' client-secret ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Войти' }));
    await vi.waitFor(() => expect(checked).toBe('client-secret'));
    expect(sessionStorage.getItem('jira-hub-token')).toBe('client-secret');
  });
});
