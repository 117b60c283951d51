/**
 * Rule: a per-target breaker's row names its target while the host holds the name in memory, and
 * says plainly that the name is not kept when the host knows only the digest (after a restart);
 * a tool-wide breaker, or a view made from an event before the refetch, says nothing of a name.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { BreakerTargetName, NAME_NOT_KEPT } from '../../renderer/src/pages/breakers/BreakerTargetName';

const text = (view: { target?: string; label?: string }) =>
  renderToStaticMarkup(createElement(BreakerTargetName, { view })).replace(/<[^>]+>/g, '');

describe("a breaker target's name on the Breakers page", () => {
  it('shows the name the host holds in memory', () => {
    expect(text({ target: '0a1b2c3d', label: 'https://api.example.com' })).toBe('https://api.example.com');
  });

  it('says the name is not kept when only the digest is known', () => {
    expect(text({ target: '0a1b2c3d' })).toBe(NAME_NOT_KEPT);
    expect(NAME_NOT_KEPT).toContain('after a restart');
  });

  it('says nothing for a tool-wide breaker', () => {
    expect(text({})).toBe('');
  });
});
