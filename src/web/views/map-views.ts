/**
 * Heat map and hot spot questions (answers-map.ts): the image, clicked with a pointer (the page's script
 * below records the point in the image's own pixels, or moves the region under it to its next state), its
 * regions drawn over it as SVG shapes (boxes or polygons), and the regions as native controls for the
 * keyboard and screen readers: radio buttons (heat map), check boxes (on/off hot spot), or per region a
 * group of three radio buttons, neither / like / dislike (like/dislike hot spot).
 */
import { HOT_SPOT_STATES } from '../../modules/engine/answers-map.js';
import type { Choice, Question } from '../../modules/engine/survey-model.js';
import { type Html, html, rich } from '../html.js';
import type { TextMedia } from '../rich-text.js';

type Values = Record<string, string[]>;

const first = (values: string[] | undefined) => values?.[0] ?? '';

const STATE_LABELS: [string, string][] = [
  [HOT_SPOT_STATES.neither, 'Neither'],
  [HOT_SPOT_STATES.like, 'Like'],
  [HOT_SPOT_STATES.dislike, 'Dislike'],
];

/** A like/dislike hot spot's regions: per region, its three states as radio buttons. */
function likeDislikeList(question: Question, choices: Choice[], values: Values, media: TextMedia): Html {
  const id = question.id;
  return html`<p class="hint" id="mr-${id}">Or mark each region:</p>
<div class="choices hs-regions">${choices.map((c) => {
    const name = `${id}_${c.id}`;
    const state = first(values[name]) || HOT_SPOT_STATES.neither;
    return html`<fieldset class="hs-region"><legend>${rich(c.text, { inline: true, media })}</legend><div class="choices horizontal">${STATE_LABELS.map(
      ([value, label]) =>
        html`<div class="choice"><input type="radio" id="f-${name}-${value}" name="${name}" value="${value}"${state === value ? html` checked` : ''}><label for="f-${name}-${value}">${label}</label></div>`,
    )}</div></fieldset>`;
  })}</div>`;
}

function regionList(question: Question, choices: Choice[], values: Values, media: TextMedia): Html {
  const id = question.id;
  const heat = question.kind === 'heatmap';
  if (choices.length === 0) return html``;
  if (!heat && question.map?.likeDislike) return likeDislikeList(question, choices, values, media);
  return html`<p class="hint" id="mr-${id}">${heat ? 'Or choose the region:' : 'Or turn regions on:'}</p>
<div class="choices" role="group" aria-labelledby="mr-${id}">${choices.map((c) => {
    const checked = heat ? (values[id] ?? []).includes(c.id) : first(values[`${id}_${c.id}`]) === '1';
    const field = `f-${id}-${c.id}`;
    return html`<div class="choice"><input type="${heat ? 'radio' : 'checkbox'}" id="${field}" name="${id}" value="${c.id}"${checked ? html` checked` : ''}><label for="${field}">${rich(c.text, { inline: true, media })}</label></div>`;
  })}</div>`;
}

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
  const states = !heat && map.likeDislike ? 'like-dislike' : heat ? 'point' : 'on-off';
  return html`<div class="map" data-map="${id}" data-kind="${question.kind}" data-states="${states}" data-regions="${JSON.stringify(shown)}">${image}<span class="map-dot" hidden></span></div>${point}${regionList(question, choices, values, media)}`;
}

export const MAP_STYLES = `
.map{position:relative;display:inline-block;max-width:100%;line-height:0}
.map p{margin:0}
.map img{display:block;cursor:crosshair}
.map-dot{position:absolute;width:14px;height:14px;margin:-7px 0 0 -7px;border-radius:50%;background:#b00020;border:2px solid #fff;pointer-events:none}
.map svg{position:absolute;top:0;left:0;width:100%;height:100%;pointer-events:none;overflow:visible}
.map-region{fill:transparent;stroke:#1d4ed8;stroke-width:2px;stroke-dasharray:6 4;vector-effect:non-scaling-stroke}
.map-region.on,.map-region.like{fill:rgba(29,78,216,.35);stroke-dasharray:none}
.map-region.dislike{fill:rgba(176,0,32,.35);stroke:#b00020;stroke-dasharray:none}
.hs-region{border:0;margin:0;padding:0;min-width:0}
.hs-region legend{padding:0;margin-bottom:.25rem;font-weight:600}
`;

/** The pointer on the image; the native controls stay the answer the server reads for hot spots. */
export const MAP_SCRIPT = `
document.addEventListener('DOMContentLoaded', function () {
  var SVG = 'http://www.w3.org/2000/svg';
  function inPolygon(points, x, y) {
    var inside = false;
    for (var i = 0, j = points.length - 1; i < points.length; j = i++) {
      var a = points[i], b = points[j];
      if ((a[1] > y) !== (b[1] > y) && x < (b[0] - a[0]) * (y - a[1]) / (b[1] - a[1]) + a[0]) inside = !inside;
    }
    return inside;
  }
  function holds(shapes, x, y) {
    return shapes.some(function (s) {
      return s.kind === 'box' ? x >= s.x && x <= s.x + s.width && y >= s.y && y <= s.y + s.height : inPolygon(s.points, x, y);
    });
  }
  document.querySelectorAll('[data-map]').forEach(function (box) {
    var img = box.querySelector('img');
    if (!img) return;
    var id = box.getAttribute('data-map');
    var states = box.getAttribute('data-states');
    var heat = states === 'point';
    var regions = JSON.parse(box.getAttribute('data-regions') || '{}');
    var dot = box.querySelector('.map-dot');
    var xIn = document.getElementById('f-' + id + '_1_x');
    var yIn = document.getElementById('f-' + id + '_1_y');
    var svg = null;
    var drawn = {};
    function regionAt(x, y) {
      for (var k in regions) if (holds(regions[k], x, y)) return k;
      return null;
    }
    function stateOf(k) {
      if (states === 'like-dislike') {
        var picked = document.querySelector('input[name="' + id + '_' + k + '"]:checked');
        return picked ? ['', 'like', 'dislike'][Number(picked.value)] || '' : '';
      }
      var input = document.querySelector('input[name="' + id + '"][value="' + k + '"]');
      return input && input.checked ? 'on' : '';
    }
    function pct(v, of) { return (v / of * 100) + '%'; }
    function shapesOf(k) {
      if (drawn[k]) return drawn[k];
      drawn[k] = regions[k].map(function (s) {
        var el = document.createElementNS(SVG, s.kind === 'box' ? 'rect' : 'polygon');
        if (s.kind === 'box') {
          el.setAttribute('x', s.x); el.setAttribute('y', s.y);
          el.setAttribute('width', s.width); el.setAttribute('height', s.height);
        } else el.setAttribute('points', s.points.map(function (p) { return p[0] + ',' + p[1]; }).join(' '));
        svg.appendChild(el);
        return el;
      });
      return drawn[k];
    }
    function draw() {
      if (!img.naturalWidth) return;
      if (heat) {
        if (xIn.value !== '') {
          dot.hidden = false;
          dot.style.left = pct(Number(xIn.value), img.naturalWidth);
          dot.style.top = pct(Number(yIn.value), img.naturalHeight);
        } else dot.hidden = true;
        return;
      }
      if (!svg) {
        svg = document.createElementNS(SVG, 'svg');
        svg.setAttribute('viewBox', '0 0 ' + img.naturalWidth + ' ' + img.naturalHeight);
        svg.setAttribute('preserveAspectRatio', 'none');
        svg.setAttribute('aria-hidden', 'true');
        svg.setAttribute('focusable', 'false');
        box.appendChild(svg);
      }
      for (var k in regions) {
        var state = stateOf(k);
        shapesOf(k).forEach(function (el) { el.setAttribute('class', 'map-region' + (state ? ' ' + state : '')); });
      }
    }
    img.addEventListener('click', function (e) {
      var b = img.getBoundingClientRect();
      var x = Math.round((e.clientX - b.left) * img.naturalWidth / b.width);
      var y = Math.round((e.clientY - b.top) * img.naturalHeight / b.height);
      var k = regionAt(x, y);
      if (heat) {
        xIn.value = String(x); yIn.value = String(y);
        document.querySelectorAll('input[name="' + id + '"]').forEach(function (r) { r.checked = r.value === k; });
      } else if (k !== null && states === 'like-dislike') {
        // Neither, like, dislike, and round again.
        var picked = document.querySelector('input[name="' + id + '_' + k + '"]:checked');
        var nextState = String(((picked ? Number(picked.value) : 0) + 1) % 3);
        var radio = document.querySelector('input[name="' + id + '_' + k + '"][value="' + nextState + '"]');
        if (radio) radio.checked = true;
      } else if (k !== null) {
        var input = document.querySelector('input[name="' + id + '"][value="' + k + '"]');
        if (input) input.checked = !input.checked;
      }
      draw();
    });
    document.querySelectorAll('input[name="' + id + '"], input[name^="' + id + '_"]').forEach(function (input) {
      input.addEventListener('change', function () {
        if (heat && input.name === id) { xIn.value = ''; yIn.value = ''; }
        draw();
      });
    });
    if (img.complete) draw(); else img.addEventListener('load', draw);
  });
});
`;
