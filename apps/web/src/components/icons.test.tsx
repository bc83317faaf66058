import { MENU_ICONS } from '@ks/contracts';
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { iconElement, NamedIcon } from './icons';

describe('the icon table', () => {
  it('draws every icon the server offers', () => {
    for (const name of MENU_ICONS) {
      const { container, unmount } = render(<NamedIcon name={name} />);
      expect(container.querySelector('svg'), name).not.toBeNull();
      unmount();
    }
  });

  it('draws nothing for an unknown, empty or inherited name', () => {
    for (const name of ['NoSuchOutlined', '', null, undefined, 'constructor', 'toString']) {
      const { container, unmount } = render(<NamedIcon name={name} />);
      expect(container.innerHTML, String(name)).toBe('');
      unmount();
      expect(iconElement(name)).toBeUndefined();
    }
    expect(iconElement('HomeOutlined')).toBeDefined();
  });
});
