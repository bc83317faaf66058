import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppProviders, createQueryClient } from '../app/AppProviders';
import { PROMPT_OK_TEXT } from './PromptDialog';
import { currentPrompt, prompt, resetPrompts } from './prompt';

function renderHost() {
  return render(
    <AppProviders queryClient={createQueryClient()}>
      <input data-testid="outside" />
    </AppProviders>,
  );
}

afterEach(() => {
  act(() => resetPrompts());
});

describe('global prompt dialog', () => {
  it('shows title 提示, the default message 提示信息, the info icon and one button labelled 确 定', async () => {
    renderHost();
    act(() => prompt());
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('提示');
    expect(screen.getByTestId('prompt-dialog').textContent).toContain('提示信息');
    expect(screen.getByTestId('prompt-icon-info')).toBeTruthy();
    const ok = screen.getByTestId('prompt-ok');
    expect(ok.textContent).toBe('确 定');
    expect(PROMPT_OK_TEXT).toBe('确 定');
    expect(dialog.querySelectorAll('button')).toHaveLength(1);
  });

  it('type 1 shows the warning icon and the given message', async () => {
    renderHost();
    act(() => prompt({ message: '服务器内部错误，请联系管理员', type: 1 }));
    expect(await screen.findByTestId('prompt-icon-warning')).toBeTruthy();
    expect(screen.getByTestId('prompt-dialog').textContent).toContain('服务器内部错误，请联系管理员');
    expect(screen.getByTestId('prompt-dialog').getAttribute('data-prompt-type')).toBe('1');
  });

  it('the button confirms and calls onOk once', async () => {
    const user = userEvent.setup();
    const onOk = vi.fn();
    renderHost();
    act(() => prompt({ message: '确认后跳转', onOk }));
    await user.click(await screen.findByTestId('prompt-ok'));
    expect(onOk).toHaveBeenCalledTimes(1);
    expect(currentPrompt()).toBeNull();
  });

  it('Enter confirms, even when the focus is elsewhere, and calls onOk once', async () => {
    const user = userEvent.setup();
    const onOk = vi.fn();
    renderHost();
    screen.getByTestId('outside').focus();
    act(() => prompt({ message: '按回车确认', onOk }));
    await screen.findByRole('dialog');
    await user.keyboard('{Enter}');
    expect(onOk).toHaveBeenCalledTimes(1);
    expect(currentPrompt()).toBeNull();
  });

  it('queues prompts and shows them one after another', async () => {
    const user = userEvent.setup();
    const first = vi.fn();
    const second = vi.fn();
    renderHost();
    act(() => {
      prompt({ message: '第一条', onOk: first });
      prompt({ message: '第二条', onOk: second });
    });
    expect((await screen.findByTestId('prompt-dialog')).textContent).toContain('第一条');
    await user.click(screen.getByTestId('prompt-ok'));
    expect(first).toHaveBeenCalledTimes(1);
    expect(second).not.toHaveBeenCalled();
    await waitFor(() => expect(screen.getByTestId('prompt-dialog').textContent).toContain('第二条'));
    await user.keyboard('{Enter}');
    expect(second).toHaveBeenCalledTimes(1);
    expect(first).toHaveBeenCalledTimes(1);
  });
});
