import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { AssignDialog, type AssignPerson } from './AssignDialog';
import { renderUi } from './test-utils';

const PEOPLE: AssignPerson[] = [
  { id: 'u1', userName: '王审核', account: 'wang', enterpriseName: '市住建局' },
  { id: 'u2', userName: '赵审核', account: 'zhao' },
  { id: 'u3', userName: '钱经办', account: 'qian' },
];

const confirm = () => screen.getByTestId('assign-confirm') as HTMLButtonElement;

describe('AssignDialog (screen 15)', () => {
  it('is titled 任务指派 with 关闭 and 确定; 确定 is disabled until someone is chosen', async () => {
    const user = userEvent.setup();
    const onConfirm = vi.fn();
    renderUi(<AssignDialog open people={PEOPLE} onClose={vi.fn()} onConfirm={onConfirm} />);
    expect(await screen.findByText('任务指派')).toBeTruthy();
    expect(screen.getByTestId('assign-close').textContent).toBe('关闭');
    expect(confirm().textContent).toBe('确定');
    expect(confirm().disabled).toBe(true);

    await user.click(screen.getByTestId('assign-person-u2'));
    expect(confirm().disabled).toBe(false);
    await user.click(confirm());
    expect(onConfirm).toHaveBeenCalledWith(['u2'], [PEOPLE[1]]);
  });

  it('chooses several people when multiple', async () => {
    const user = userEvent.setup();
    const onConfirm = vi.fn();
    renderUi(<AssignDialog open multiple people={PEOPLE} onClose={vi.fn()} onConfirm={onConfirm} />);
    await user.click(await screen.findByTestId('assign-person-u1'));
    await user.click(screen.getByTestId('assign-person-u3'));
    await user.click(screen.getByTestId('assign-person-u1'));
    await user.click(confirm());
    expect(onConfirm).toHaveBeenCalledWith(['u3'], [PEOPLE[2]]);
  });

  it('filters by name and closes with 关闭', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    renderUi(<AssignDialog open people={PEOPLE} onClose={onClose} onConfirm={vi.fn()} />);
    await user.type(await screen.findByPlaceholderText('输入姓名筛选'), '审核');
    expect(screen.queryByTestId('assign-person-u3')).toBeNull();
    expect(screen.getByTestId('assign-person-u1')).toBeTruthy();
    await user.click(screen.getByTestId('assign-close'));
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
