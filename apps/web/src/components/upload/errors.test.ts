import { act } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, configureRequest } from '../../api/request';
import { resetPrompts } from '../../components/prompt';
import { failedMessage, refusalMessage, reportUploadError } from './errors';

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
  vi.useRealTimers();
});

const refused = (message: string, status = 400) => new ApiError('response', status, status, message, null);

describe('§8 upload errors', () => {
  it('a refusal shows the server message; without one 上传失败！, or for a typed attachment 文件上传失败，请重新上传！', () => {
    const notify = vi.fn();
    reportUploadError(refused('文件内容与扩展名不符，请上传真实的文件'), false, { notify });
    expect(notify).toHaveBeenLastCalledWith('文件内容与扩展名不符，请上传真实的文件', 'error');
    // no envelope message: the request client's generic text is not a server message
    reportUploadError(refused('请求失败，请联系管理员！', 500), false, { notify });
    expect(notify).toHaveBeenLastCalledWith('上传失败！', 'error');
    reportUploadError(refused('', 500), true, { notify });
    expect(notify).toHaveBeenLastCalledWith('文件上传失败，请重新上传！', 'error');
    expect(failedMessage(false)).toBe('上传失败！');
    expect(failedMessage(true)).toBe('文件上传失败，请重新上传！');
    expect(refusalMessage(new Error('boom'), true)).toBe('文件上传失败，请重新上传！');
  });

  it('no answer (timeout, broken network): 当前网络拥堵，请重新上传！ after 1.5 s', () => {
    vi.useFakeTimers();
    const notify = vi.fn();
    reportUploadError(new ApiError('timeout', 0, 0, '请求超时', null), false, { notify });
    vi.advanceTimersByTime(1499);
    expect(notify).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(notify).toHaveBeenCalledWith('当前网络拥堵，请重新上传！', 'error');
    const n2 = vi.fn();
    const drop = reportUploadError(new ApiError('network', 0, 0, '请求失败，请联系管理员！', null), true, {
      notify: n2,
    });
    drop();
    vi.advanceTimersByTime(2000);
    expect(n2).not.toHaveBeenCalled();
  });

  it('an ended session goes to the usual §8 handling (dialog, then the sign-in page), not an upload message', () => {
    vi.useFakeTimers();
    const assign = vi.fn();
    const prompt = vi.fn();
    configureRequest({ effects: { assign, prompt, clearStorage: () => undefined, pathname: () => '/applyDetail' } });
    const notify = vi.fn();
    reportUploadError(new ApiError('response', 401, 10001, '登录已失效', null), false, { notify });
    expect(notify).not.toHaveBeenCalled();
    expect(prompt).toHaveBeenCalledWith(expect.objectContaining({ message: '登录已失效' }));
    vi.advanceTimersByTime(500);
    expect(assign).toHaveBeenCalledWith('/login?reason=10001');
  });
});
