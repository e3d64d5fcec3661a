// A vertical bar chart as inline SVG: one bar per item, its value printed above it, the
// label below. The SVG is an image with a text alternative; the page keeps the same
// figures in a table for screen readers and copying.

const SVG = 'http://www.w3.org/2000/svg';

function el(name, attrs = {}, text) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * Replaces the content of `container` with a bar chart.
 * items: [{ label, value }]; format(value) gives the text above a bar; title and
 * description become the SVG's accessible name and description.
 */
export function renderBarChart(container, { items, format, title, description, axisLabel }) {
  const width = 560;
  const height = 260;
  const top = 28;
  const bottom = 44;
  const left = 16;
  const right = 16;
  const plotHeight = height - top - bottom;
  const max = Math.max(...items.map((d) => d.value), 0) || 1;
  const slot = (width - left - right) / Math.max(items.length, 1);
  const barWidth = Math.min(72, slot * 0.6);

  const svg = el('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-labelledby': 'chart-title chart-desc' });
  svg.append(el('title', { id: 'chart-title' }, title), el('desc', { id: 'chart-desc' }, description));
  const baseline = top + plotHeight;
  svg.append(el('line', { class: 'axis', x1: left, x2: width - right, y1: baseline, y2: baseline }));
  items.forEach((item, i) => {
    const h = Math.max(1, (item.value / max) * plotHeight);
    const x = left + slot * i + (slot - barWidth) / 2;
    const cx = x + barWidth / 2;
    const bar = el('rect', { class: 'bar', x, y: baseline - h, width: barWidth, height: h, 'data-label': item.label, 'data-value': item.value });
    svg.append(bar);
    svg.append(el('text', { class: 'value', x: cx, y: baseline - h - 6, 'text-anchor': 'middle' }, format(item.value)));
    svg.append(el('text', { x: cx, y: baseline + 18, 'text-anchor': 'middle' }, item.label));
  });
  if (axisLabel) svg.append(el('text', { x: width / 2, y: height - 6, 'text-anchor': 'middle' }, axisLabel));
  container.replaceChildren(svg);
  return svg;
}
