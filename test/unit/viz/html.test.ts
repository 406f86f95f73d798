import { describe, expect, it } from 'vitest';
import { renderViewerHtml, scriptSafeJson, viewerData } from '../../../src/viz/html.ts';
import { layoutChart } from '../../../src/viz/layout.ts';
import { buildChart } from '../../../src/viz/graph.ts';
import { parseSessionLog } from '../../../src/viz/session.ts';
import { hostileSession, HOSTILE_TEXT, minimalLog, toolUsingSession } from './fixtures.ts';

describe('the viewer page', () => {
  it('is one self-contained file: no external URL is loaded', () => {
    const html = renderViewerHtml(viewerData(parseSessionLog(minimalLog(toolUsingSession()))));
    expect(/<script[^>]*\ssrc=/i.test(html)).toBe(false);
    expect(/<link[^>]*\shref=/i.test(html)).toBe(false);
    expect(/url\((?!#)/.test(html)).toBe(false);
    expect(html.includes('http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;;')).toBe(true);
  });

  it('draws every state and every transition with a target, with hooks for the page script', () => {
    const chart = buildChart();
    const { svg } = layoutChart(chart);
    for (const state of chart.states) expect(svg).toContain(`data-state="${state.id}"`);
    for (const t of chart.transitions.filter((t) => t.target !== null)) expect(svg).toContain(`data-transition="${t.id.replace(/&/g, '&amp;')}"`);
  });

  it('embeds session text only inside the escaped JSON block', () => {
    const html = renderViewerHtml(viewerData(parseSessionLog(minimalLog(hostileSession()))));
    expect(html.includes('<script>alert(1)')).toBe(false);
    expect(html.includes('<img src=x')).toBe(false);
    expect(html.match(/<\/script>/g)).toHaveLength(2);
    const json = /<script type="application\/json" id="turnloop-data">([^]*?)<\/script>/.exec(html)![1]!;
    expect(JSON.stringify(JSON.parse(json))).toContain(HOSTILE_TEXT.slice(0, 20));
  });

  it('escapes everything that could end a script element or start a comment', () => {
    const text = scriptSafeJson({ a: '</script><!-- & \u2028\u2029' });
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual({ a: '</script><!-- & \u2028\u2029' });
  });

  it('draws the chart alone without a session', () => {
    const html = renderViewerHtml(viewerData(null));
    expect(html).toContain('data-state="exitLadder.stopHooks"');
    expect(html).toContain('No session loaded');
  });
});
