/**
 * Heat map and hot spot questions (answers-map.ts): the image, clicked with a pointer (the page's script
 * below records the point in the image's own pixels, or turns the region under it on or off), and the
 * regions as native radio buttons (heat map) or check boxes (hot spot) for the keyboard and screen readers.
 */
import type { Choice, Question } from '../../modules/engine/survey-model.js';
import { type Html, html, rich } from '../html.js';
import type { TextMedia } from '../rich-text.js';

type Values = Record<string, string[]>;

const first = (values: string[] | undefined) => values?.[0] ?? '';

export function mapQuestion(question: Question, choices: Choice[], values: Values, media: TextMedia): Html {
  const map = question.map ?? { image: '', alt: '', regions: {} };
  const id = question.id;
  const heat = question.kind === 'heatmap';
  const shown = Object.fromEntries(
    choices.filter((c) => map.regions[c.id]).map((c) => [c.id, map.regions[c.id]]),
  );
  const image = map.image ? rich(html`<img src="${map.image}" alt="${map.alt}">`.html, { media }) : '';
  const point = heat
    ? html`<input type="hidden" id="f-${id}_1_x" name="${id}_1_x" value="${first(values[`${id}_1_x`])}"><input type="hidden" id="f-${id}_1_y" name="${id}_1_y" value="${first(values[`${id}_1_y`])}">`
    : '';
  const list =
    choices.length === 0
      ? ''
      : html`<p class="hint" id="mr-${id}">${heat ? 'Or choose the region:' : 'Or turn regions on:'}</p>
<div class="choices" role="group" aria-labelledby="mr-${id}">${choices.map((c) => {
          const checked = heat ? (values[id] ?? []).includes(c.id) : first(values[`${id}_${c.id}`]) === '1';
          const field = `f-${id}-${c.id}`;
          return html`<div class="choice"><input type="${heat ? 'radio' : 'checkbox'}" id="${field}" name="${id}" value="${c.id}"${checked ? html` checked` : ''}><label for="${field}">${rich(c.text, { inline: true, media })}</label></div>`;
        })}</div>`;
  return html`<div class="map" data-map="${id}" data-kind="${question.kind}" data-regions="${JSON.stringify(shown)}">${image}<span class="map-dot" hidden></span></div>${point}${list}`;
}

export const MAP_STYLES = `
.map{position:relative;display:inline-block;max-width:100%;line-height:0}
.map p{margin:0}
.map img{display:block;cursor:crosshair}
.map-dot{position:absolute;width:14px;height:14px;margin:-7px 0 0 -7px;border-radius:50%;background:#b00020;border:2px solid #fff;pointer-events:none}
.map-region{position:absolute;border:2px dashed #1d4ed8;pointer-events:none}
.map-region.on{background:rgba(29,78,216,.35)}
`;

/** The pointer on the image; the lists stay the answer the server reads for hot spots. */
export const MAP_SCRIPT = `
document.addEventListener('DOMContentLoaded', function () {
  document.querySelectorAll('[data-map]').forEach(function (box) {
    var img = box.querySelector('img');
    if (!img) return;
    var id = box.getAttribute('data-map');
    var heat = box.getAttribute('data-kind') === 'heatmap';
    var regions = JSON.parse(box.getAttribute('data-regions') || '{}');
    var dot = box.querySelector('.map-dot');
    var xIn = document.getElementById('f-' + id + '_1_x');
    var yIn = document.getElementById('f-' + id + '_1_y');
    var boxes = document.querySelectorAll('input[name="' + id + '"]');
    var outlines = {};
    function regionAt(x, y) {
      for (var k in regions) {
        var r = regions[k];
        if (x >= r.x && x <= r.x + r.width && y >= r.y && y <= r.y + r.height) return k;
      }
      return null;
    }
    function pct(v, of) { return (v / of * 100) + '%'; }
    function draw() {
      if (!img.naturalWidth) return;
      if (heat && xIn.value !== '') {
        dot.hidden = false;
        dot.style.left = pct(Number(xIn.value), img.naturalWidth);
        dot.style.top = pct(Number(yIn.value), img.naturalHeight);
      } else dot.hidden = true;
      if (heat) return;
      for (var k in regions) {
        var r = regions[k];
        var el = outlines[k];
        if (!el) { el = outlines[k] = document.createElement('span'); el.className = 'map-region'; box.appendChild(el); }
        el.style.left = pct(r.x, img.naturalWidth); el.style.top = pct(r.y, img.naturalHeight);
        el.style.width = pct(r.width, img.naturalWidth); el.style.height = pct(r.height, img.naturalHeight);
        var input = document.querySelector('input[name="' + id + '"][value="' + k + '"]');
        el.classList.toggle('on', !!(input && input.checked));
      }
    }
    img.addEventListener('click', function (e) {
      var b = img.getBoundingClientRect();
      var x = Math.round((e.clientX - b.left) * img.naturalWidth / b.width);
      var y = Math.round((e.clientY - b.top) * img.naturalHeight / b.height);
      var k = regionAt(x, y);
      if (heat) {
        xIn.value = String(x); yIn.value = String(y);
        boxes.forEach(function (r) { r.checked = r.value === k; });
      } else if (k !== null) {
        var input = document.querySelector('input[name="' + id + '"][value="' + k + '"]');
        if (input) input.checked = !input.checked;
      }
      draw();
    });
    boxes.forEach(function (input) {
      input.addEventListener('change', function () {
        if (heat) { xIn.value = ''; yIn.value = ''; }
        draw();
      });
    });
    if (img.complete) draw(); else img.addEventListener('load', draw);
  });
});
`;
