import { browser } from './browser';

type Navigator = (to: string) => void;

let navigator: Navigator | null = null;

/** The app registers the router's navigate so that code outside React can change route without a reload. */
export function setNavigator(fn: Navigator | null): void {
  navigator = fn;
}

/** In-app navigation through the router when one is registered; a full navigation otherwise. */
export function navigateTo(to: string): void {
  if (navigator) navigator(to);
  else browser.assign(to);
}
