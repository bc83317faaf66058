import { SESSION_KEYS, WEATHER_NOT_CONFIGURED, WEATHER_UPSTREAM_FAILED } from '@ks/contracts';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureRequest } from '../../api/request';
import { AntdProviders } from '../../app/AntdProviders';
import { AppProviders, createQueryClient } from '../../app/AppProviders';
import { currentPrompt, resetPrompts } from '../../components/prompt';
import { browser } from '../../lib/browser';
import { createFakeServer, type Handler } from '../../test/server';
import { WeatherWidget, windText } from './WeatherWidget';

const LIVE = {
  configured: true,
  province: '山西',
  city: '太原市',
  adcode: '140100',
  weather: '多云',
  temperature: '12',
  winddirection: '西北',
  windpower: '≤3',
  humidity: '41',
  reporttime: '2026-11-26 10:00:00',
  dayweatherIcon: 'cloudy',
  forecasts: [
    {
      date: '2026-11-26',
      week: '周四',
      dayweather: '多云',
      nightweather: '晴',
      daytemp: '13',
      nighttemp: '-2',
      daywind: '西北',
      daypower: '1-3',
      dayweatherIcon: 'cloudy',
    },
    {
      date: '2026-11-27',
      week: '周五',
      dayweather: '小雨',
      nightweather: '阴',
      daytemp: '9',
      nighttemp: '0',
      daywind: '东南',
      daypower: '1-3',
      dayweatherIcon: 'light-rain',
    },
    {
      date: '2026-11-28',
      week: '周六',
      dayweather: '雨夹雪',
      nightweather: '小雪',
      daytemp: '4',
      nighttemp: '-5',
      daywind: '北',
      daypower: '4',
      dayweatherIcon: 'sleet',
    },
  ],
};

function show(handler: Handler) {
  sessionStorage.setItem(SESSION_KEYS.token, 'tok-weather');
  vi.spyOn(browser, 'pathname').mockReturnValue('/system/pageConfig');
  const server = createFakeServer({ 'GET /ks/common/weather': handler });
  configureRequest({ transport: server.transport });
  render(
    <AppProviders queryClient={createQueryClient()}>
      <AntdProviders>
        <WeatherWidget color="#fff" buttonStyle={{}} />
      </AntdProviders>
    </AppProviders>,
  );
  return server;
}

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
});

describe('WeatherWidget', () => {
  it('shows the icon, temperature and city; hovering shows the details and the forecast', async () => {
    show(() => ({ data: LIVE }));
    const user = userEvent.setup();
    const widget = await screen.findByTestId('weather-widget');
    await waitFor(() => expect(screen.getByTestId('weather-summary').textContent).toBe('12°C 太原市'));
    expect(within(widget).getByTestId('weather-icon-cloudy')).toBeTruthy();
    await user.hover(widget);
    const panel = await screen.findByTestId('weather-panel');
    expect(within(panel).getByTestId('weather-city').textContent).toBe('太原市');
    expect(within(panel).getByTestId('weather-weather').textContent).toBe('多云');
    expect(within(panel).getByTestId('weather-temperature').textContent).toBe('12°C');
    expect(within(panel).getByTestId('weather-wind').textContent).toBe('西北风 ≤3级');
    expect(within(panel).getByTestId('weather-humidity').textContent).toBe('41%');
    const rows = within(panel).getAllByTestId('weather-forecast-row');
    expect(rows).toHaveLength(3);
    expect(rows[1]!.textContent).toContain('11-27 周五');
    expect(within(rows[1]!).getByTestId('weather-forecast-temp').textContent).toBe('0~9°C');
    expect(rows[1]!.textContent).toContain('东南风 1-3级');
    expect(within(rows[1]!).getByTestId('weather-icon-light-rain')).toBeTruthy();
    expect(within(rows[2]!).getByTestId('weather-icon-sleet')).toBeTruthy();
  });

  it('says 天气服务未配置 when the server has no key — and invents nothing', async () => {
    show(() => ({ data: { configured: false, message: WEATHER_NOT_CONFIGURED } }));
    const user = userEvent.setup();
    const widget = await screen.findByTestId('weather-widget');
    await waitFor(() => expect(widget.textContent).toContain(WEATHER_NOT_CONFIGURED));
    expect(screen.queryByTestId('weather-summary')).toBeNull();
    await user.hover(widget);
    expect((await screen.findByTestId('weather-not-configured')).textContent).toBe(WEATHER_NOT_CONFIGURED);
    expect(screen.queryByTestId('weather-panel')).toBeNull();
  });

  it('a failing weather service is said in the popover, not in a dialog over the page', async () => {
    const server = show(() => ({ status: 502, message: WEATHER_UPSTREAM_FAILED }));
    const user = userEvent.setup();
    const widget = await screen.findByTestId('weather-widget');
    await waitFor(() => expect(server.callsTo('/ks/common/weather')).toHaveLength(1));
    await user.hover(widget);
    expect((await screen.findByTestId('weather-failed')).textContent).toBe(WEATHER_UPSTREAM_FAILED);
    expect(currentPrompt()).toBeNull();
  });

  it('words the wind as AMap gives it', () => {
    expect(windText('西北', '≤3')).toBe('西北风 ≤3级');
    expect(windText('无风向', '')).toBe('无风向');
    expect(windText('旋转不定', '≤3')).toBe('旋转不定 ≤3级');
    expect(windText('', '')).toBe('—');
  });
});
