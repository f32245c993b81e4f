// demo.js - the browser demo's page: draws the map, takes mouse input, and plays frames through the
// WebAssembly build of the library (web/pf_web.c). Every order and edit goes into a log in the
// format of `pathfind replay` (docs/cli.md), so the native tool can answer the same session: the
// browser test (web/test_browser.js) compares the two, order by order.
'use strict';

const PRIO_WORDS = ['normal', 'urgent', 'background'];
const BUILDING = 6;          // side of a building, in cells
const SPEED = 1.5;           // cells a unit walks per frame
const TRACE_PER_FRAME = 24;  // searches replayed for their expanded cells per frame (the rest show none)
const FADE_FRAMES = 40;      // frames an answered search's cells stay on the picture

const $ = (id) => document.getElementById(id);
let M = null;                // the WebAssembly module
const S = {
  name: '', w: 0, h: 0, classes: null, terrain: null,
  algo: 1, frame: 0, playing: true,
  units: [], buildings: [], nextTag: 1,
  edits: [], pendingOrders: [],   // what the next frame applies, in that order
  log: [], orders: [],            // the session: replay's log lines, and one record per order
  active: [],                     // orders whose expanded cells are drawn
  last: { ms: 0, maxMs: 0, expanded: 0, answered: 0 },
  checked: null,
};

function cstr(s) {
  const n = M.lengthBytesUTF8(s) + 1;
  const p = M._malloc(n);
  M.stringToUTF8(s, p, n);
  return p;
}
function message(text) { $('msg').textContent = text || ''; }
function wasmMessage() { return M.UTF8ToString(M._pfw_message()); }

// ---- map and session --------------------------------------------------------------------------

function loadMapText(text, name) {
  const p = cstr(text), q = cstr(name);
  const st = M._pfw_load(p, M.lengthBytesUTF8(text), q);
  M._free(p);
  M._free(q);
  if (st !== 0) { message(name + ': ' + wasmMessage()); return false; }
  S.name = name;
  S.w = M._pfw_width();
  S.h = M._pfw_height();
  S.buildings = [];
  refreshTerrain();
  return newSession();
}

function newSession() {
  const st = M._pfw_session(S.algo);
  S.units = []; S.edits = []; S.pendingOrders = []; S.log = ['orders 1']; S.orders = []; S.active = [];
  S.frame = 0; S.nextTag = 1; S.checked = null;
  S.last = { ms: 0, maxMs: 0, expanded: 0, answered: 0 };
  if (st !== 0) { message('session: ' + wasmMessage()); return false; }
  message('');
  draw();
  return true;
}

const CLASS_RGB = [[40, 40, 40], [236, 232, 220], [120, 170, 220], [110, 160, 90]];
function refreshTerrain() {
  const p = M._pfw_classes();
  S.classes = M.HEAPU8.slice(p, p + S.w * S.h);
  S.terrain = new ImageData(S.w, S.h);
  const d = S.terrain.data;
  for (let i = 0; i < S.w * S.h; i++) {
    const c = CLASS_RGB[Math.min(S.classes[i], 3)];
    d[4 * i] = c[0]; d[4 * i + 1] = c[1]; d[4 * i + 2] = c[2]; d[4 * i + 3] = 255;
  }
}

// ---- input: what the next frame will apply ----------------------------------------------------

function buildingAt(x, y) {
  return S.buildings.find((b) => x >= b.x && x < b.x + b.w && y >= b.y && y < b.y + b.h);
}

// Places a building centred on (x, y), or removes the one there. Buildings go on plain ground
// only, so that removing one (ground again) restores what was there.
function toggleBuilding(x, y) {
  const old = buildingAt(x, y);
  if (old) {
    S.buildings.splice(S.buildings.indexOf(old), 1);
    S.edits.push(`rect ${old.x} ${old.y} ${old.w} ${old.h} .`);
    return true;
  }
  const bx = x - (BUILDING >> 1), by = y - (BUILDING >> 1);
  if (bx < 0 || by < 0 || bx + BUILDING > S.w || by + BUILDING > S.h) return false;
  for (let j = by; j < by + BUILDING; j++)
    for (let i = bx; i < bx + BUILDING; i++)
      if (S.classes[j * S.w + i] !== 1) { message('buildings go on open ground only'); return false; }
  message('');
  S.buildings.push({ x: bx, y: by, w: BUILDING, h: BUILDING });
  S.edits.push(`rect ${bx} ${by} ${BUILDING} ${BUILDING} @`);
  return true;
}

function addUnit(x, y, size) {
  if (M._pfw_clearance(x, y) < size) { message(`no room for a ${size}x${size} unit there`); return null; }
  const u = { tag: S.nextTag++, size, x, y, px: x, py: y, path: null, at: 0, goal: null, order: -1,
              selected: true };
  S.units.push(u);
  return u;
}

function unitAt(x, y) {
  return S.units.find((u) => x >= u.x && x < u.x + u.size && y >= u.y && y < u.y + u.size);
}

function send(units, gx, gy, prio) {
  for (const u of units) {
    u.goal = { x: gx, y: gy };
    S.pendingOrders.push({ unit: u, gx, gy, prio });
  }
}

// ---- one frame, as `pathfind replay` plays one ----------------------------------------------

function stepFrame() {
  const F = S.frame;
  M._pfw_reset();
  if (S.edits.length) {
    for (const line of S.edits) {
      const p = cstr(line);
      const st = M._pfw_edit(p);
      M._free(p);
      if (st !== 0) { console.error('edit refused: ' + wasmMessage()); continue; }
      S.log.push(`${F} ${line}`);
    }
    S.edits = [];
    refreshTerrain();
    retrace();
    reorderBroken();
  }
  let traced = 0;
  for (const o of S.pendingOrders) {
    const u = o.unit;
    const i = M._pfw_submit(u.tag, u.x, u.y, o.gx, o.gy, o.prio, u.size);
    if (i < 0) { console.error('order refused: ' + wasmMessage()); continue; }
    S.log.push(`${F} ${u.tag} ${u.x} ${u.y} ${o.gx} ${o.gy} ${PRIO_WORDS[o.prio]} size=${u.size}`);
    const rec = { index: i, unit: u, tag: u.tag, sx: u.x, sy: u.y, gx: o.gx, gy: o.gy, prio: o.prio,
                  submitted: F, arrived: -1, trace: null, shown: 0, hue: (i * 67) % 360 };
    if (traced < TRACE_PER_FRAME) { traceOf(rec); traced++; }
    S.orders.push(rec);
    S.active.push(rec);
    u.order = i;
  }
  S.pendingOrders = [];
  M._pfw_collect(F);                       // superseded orders answer at once
  const before = M._pfw_stat(0);
  let ms = 0;
  if (M._pfw_stat(1) > 0) {
    const t0 = performance.now();
    const st = M._pfw_run(Number($('budget').value) || 1);
    ms = performance.now() - t0;
    if (st !== 0) console.error('run: ' + wasmMessage());
  }
  M._pfw_collect(F);
  const spent = M._pfw_stat(0) - before;
  S.last.ms = ms;
  S.last.maxMs = Math.max(S.last.maxMs, ms);
  S.last.expanded = spent;
  answer(F);
  revealExpanded(spent);
  moveUnits();
  S.frame++;
}

// Orders answered this frame: their units follow the new path.
function answer(F) {
  let n = 0;
  for (const r of S.orders) {
    if (r.arrived >= 0) continue;
    const arrived = M._pfw_order_arrived(r.index);
    if (arrived < 0) continue;
    r.arrived = arrived;
    r.word = M.UTF8ToString(M._pfw_order_word(r.index));
    r.cost = M._pfw_order_cost(r.index);
    r.len = M._pfw_order_len(r.index);
    r.expanded = M._pfw_order_expanded(r.index);
    r.algoUsed = M.UTF8ToString(M._pfw_algo_name(M._pfw_order_algo(r.index)));
    r.flags = M._pfw_order_flags(r.index);
    r.hash = hex8(M._pfw_order_hash_hi(r.index)) + hex8(M._pfw_order_hash_lo(r.index));
    if (r.trace) r.shown = r.trace.length;
    n++;
    const u = r.unit;
    if (u.order === r.index && r.len > 0) {
      const p = M._pfw_order_path(r.index) >> 2;
      u.path = M.HEAPU32.slice(p, p + r.len);
      u.at = 0;
      u.pathOrder = r.index;
    }
  }
  S.last.answered = n;
}

function hex8(v) { return (v >>> 0).toString(16).padStart(8, '0'); }

// The batch reports the expansions of a whole run; they are drawn on the searches in flight in the
// order the budget serves them (urgent first, then by age), each search's cells from the replay of
// the same search on the viewer context.
function revealExpanded(spent) {
  const order = [1, 0, 2];
  const flying = S.active.filter((r) => r.arrived < 0 && r.trace)
    .sort((a, b) => order.indexOf(a.prio) - order.indexOf(b.prio) || a.index - b.index);
  for (const r of flying) {
    if (spent <= 0) break;
    const more = Math.min(spent, r.trace.length - r.shown);
    r.shown += more;
    spent -= more;
  }
  S.active = S.active.filter((r) => r.arrived < 0 || S.frame - r.arrived < FADE_FRAMES);
}

function moveUnits() {
  for (const u of S.units) {
    if (!u.path || u.at + 1 >= u.path.length) continue;
    let left = SPEED;
    while (left > 0 && u.at + 1 < u.path.length) {
      const nx = u.path[u.at + 1] % S.w, ny = Math.floor(u.path[u.at + 1] / S.w);
      const dx = nx - u.px, dy = ny - u.py, d = Math.hypot(dx, dy);
      if (d <= left) { u.px = nx; u.py = ny; u.at++; u.x = nx; u.y = ny; left -= d; }
      else { u.px += dx / d * left; u.py += dy / d * left; left = 0; }
    }
  }
}

// The cells order r's search expands, replayed alone on the viewer context (pfw_trace).
function traceOf(r) {
  const n = M._pfw_trace(r.sx, r.sy, r.gx, r.gy, r.unit.size);
  const p = M._pfw_trace_nodes() >> 2;
  r.trace = M.HEAPU32.slice(p, p + n);
  r.shown = 0;
}

// After an edit the batch plans its queued searches again and restarts the suspended ones from
// scratch on the new map: so does the picture.
function retrace() {
  for (const r of S.orders) if (r.arrived < 0 && r.trace) traceOf(r);
}

// After an edit: a unit whose path ahead is now blocked is sent again, from the node it last
// reached, to its goal (an order like any other, in the log).
function reorderBroken() {
  for (const u of S.units) {
    if (!u.path || u.at + 1 >= u.path.length || !u.goal) continue;
    const base = M._pfw_order_path(u.pathOrder);
    if (M._pfw_path_check(base + 4 * u.at, u.path.length - u.at, u.size) < 0) continue;
    u.path = null;
    u.px = u.x; u.py = u.y;
    S.pendingOrders.push({ unit: u, gx: u.goal.x, gy: u.goal.y, prio: 0 });
  }
}

// ---- drawing ----------------------------------------------------------------------------------

function draw() {
  const cv = $('view'), g = cv.getContext('2d');
  if (!S.terrain) return;
  const k = S.k = Math.min(768 / S.w, 768 / S.h);
  cv.width = Math.round(S.w * k); cv.height = Math.round(S.h * k);
  const img = new ImageData(new Uint8ClampedArray(S.terrain.data), S.w, S.h);
  const d = img.data;
  for (const r of S.active) {
    if (!r.trace || !r.shown) continue;
    const [cr, cg, cb] = hsl(r.hue);
    const fade = r.arrived < 0 ? 1 : 1 - (S.frame - r.arrived) / FADE_FRAMES;
    const a = 0.55 * fade;
    for (let i = 0; i < r.shown; i++) {
      const q = 4 * r.trace[i];
      d[q] = d[q] * (1 - a) + cr * a; d[q + 1] = d[q + 1] * (1 - a) + cg * a; d[q + 2] = d[q + 2] * (1 - a) + cb * a;
    }
  }
  const off = new OffscreenCanvas(S.w, S.h);
  off.getContext('2d').putImageData(img, 0, 0);
  g.imageSmoothingEnabled = false;
  g.drawImage(off, 0, 0, cv.width, cv.height);
  g.fillStyle = '#e07020';
  for (const b of S.buildings) g.fillRect(b.x * k, b.y * k, b.w * k, b.h * k);
  g.lineWidth = 1.5;
  for (const u of S.units) {
    if (u.path && u.at + 1 < u.path.length) {
      g.strokeStyle = 'rgba(200,0,160,0.8)';
      g.beginPath();
      g.moveTo((u.px + u.size / 2) * k, (u.py + u.size / 2) * k);
      for (let i = u.at + 1; i < u.path.length; i++)
        g.lineTo((u.path[i] % S.w + u.size / 2) * k, (Math.floor(u.path[i] / S.w) + u.size / 2) * k);
      g.stroke();
    }
  }
  for (const u of S.units) {
    const waiting = S.orders.some((r) => r.unit === u && r.arrived < 0);
    g.fillStyle = waiting ? '#8899ff' : '#1030c0';
    g.beginPath();
    g.arc((u.px + u.size / 2) * k, (u.py + u.size / 2) * k, Math.max(2.5, u.size * k * 0.6), 0, 7);
    g.fill();
    if (u.selected) { g.strokeStyle = '#ffd000'; g.stroke(); }
  }
  panel();
}

function hsl(h) {
  const f = (n) => { const q = (n + h / 30) % 12; return 255 * (0.5 - 0.5 * Math.max(-1, Math.min(q - 3, 9 - q, 1))); };
  return [f(0), f(8), f(4)];
}

function panel() {
  const L = S.last, st = (i) => M._pfw_stat(i);
  const lines = [
    `map ${S.name} ${S.w}x${S.h}, algorithm ${M.UTF8ToString(M._pfw_algo_name(S.algo))}` +
      (M._pfw_prep_ms() > 0.05 ? ` (prep ${M._pfw_prep_ms().toFixed(0)} ms)` : ''),
    `frame ${S.frame}: ${L.ms.toFixed(2)} ms (max ${L.maxMs.toFixed(2)}), ${L.expanded} expanded, ${L.answered} answered`,
    `batch: ${st(1)} pending, ${st(7)} answered, ${st(0)} expanded`,
    `       ${st(2)} searches, ${st(3)} deduplicated, ${st(4)} grouped, ${st(5)} suspensions, ${st(6)} restarts`,
    `units ${S.units.length}, buildings ${S.buildings.length}, orders ${S.orders.length}`,
    '',
    'unit  status      cost  cells  expanded  frames  by',
  ];
  const done = S.orders.filter((r) => r.arrived >= 0).slice(-14).reverse();
  for (const r of done)
    lines.push(`${String(r.tag).padStart(4)}  ${r.word.padEnd(10)} ${r.len ? r.cost.toFixed(2).padStart(7) : '      -'}` +
      `  ${String(r.len).padStart(5)}  ${String(r.expanded).padStart(8)}  ${String(r.arrived - r.submitted).padStart(6)}  ${r.algoUsed}`);
  if (S.checked) lines.push('', S.checked.text);
  $('panel').textContent = lines.join('\n');
}

// ---- the session as `pathfind replay` reads and writes it ----------------------------------------

// replay's CSV rows for the page's orders (order,tag,submitted,arrived,status,cost,path_len,path_hash)
function csvRows() {
  return S.orders.map((r) => {
    const ans = r.arrived < 0 ? ['-1', 'pending'] : [String(r.arrived), r.word];
    const path = r.len ? [r.cost.toFixed(6), String(r.len), r.hash] : ['-', '0', '-'];
    return [String(r.index), String(r.tag), String(r.submitted), ...ans, ...path].join(',');
  });
}

// Compares the page's answers with the native tool's CSV for the same log; shows the outcome.
function verify(nativeCsv) {
  const want = nativeCsv.trim().split('\n').slice(1);
  const got = csvRows();
  const bad = [];
  if (want.length !== got.length) bad.push(`${got.length} orders in the page, ${want.length} in the native CSV`);
  for (let i = 0; i < Math.min(want.length, got.length); i++)
    if (want[i] !== got[i]) bad.push(`order ${i}: page ${got[i]} / native ${want[i]}`);
  const paths = S.orders.filter((r) => r.len > 0).length;
  S.checked = { ok: bad.length === 0, compared: got.length, paths, mismatches: bad,
                text: bad.length ? `NATIVE CHECK FAILED: ${bad[0]}` :
                  `native check: ${got.length} orders, ${paths} paths, all equal to pathfind replay` };
  draw();
  return S.checked;
}

function ownTraced() { return S.orders.filter((r) => r.trace && r.arrived >= 0 && r.word === 'ok' && (r.flags & 3) === 0); }

function idle() { return S.pendingOrders.length === 0 && S.edits.length === 0 && M._pfw_stat(1) === 0; }

// ---- wiring -----------------------------------------------------------------------------------

function cellOf(ev) {
  const r = $('view').getBoundingClientRect();
  return [Math.floor((ev.clientX - r.left) / S.k), Math.floor((ev.clientY - r.top) / S.k)];
}

async function fetchMap(name) {
  const res = await fetch('maps/' + name);
  if (!res.ok) { message(`maps/${name}: HTTP ${res.status}`); return false; }
  return loadMapText(await res.text(), name);
}

function loop() {
  if (S.playing && S.terrain) { stepFrame(); draw(); }
  requestAnimationFrame(loop);
}

async function main() {
  M = await createPathfind();
  const res = await fetch('maps/index.txt');
  const names = res.ok ? (await res.text()).trim().split('\n') : [];
  for (const n of names) $('map').add(new Option(n, n));
  $('map').onchange = () => fetchMap($('map').value);
  $('algo').onchange = () => { S.algo = Number($('algo').value); newSession(); };
  $('play').onclick = () => { S.playing = !S.playing; $('play').textContent = S.playing ? 'pause' : 'play'; };
  $('step').onclick = () => { stepFrame(); draw(); };
  $('all').onclick = () => { for (const u of S.units) u.selected = true; draw(); };
  $('clear').onclick = () => { newSession(); };
  const view = $('view');
  view.onclick = (ev) => {
    const [x, y] = cellOf(ev);
    const tool = document.querySelector('input[name=tool]:checked').value;
    message('');
    if (tool === 'build') toggleBuilding(x, y);
    else {
      const u = unitAt(x, y);
      if (u) u.selected = !u.selected;
      else addUnit(x, y, Number($('size').value));
    }
    draw();
  };
  view.oncontextmenu = (ev) => {
    ev.preventDefault();
    const [x, y] = cellOf(ev);
    send(S.units.filter((u) => u.selected), x, y, Number($('prio').value));
  };
  const drop = $('drop');
  drop.ondragover = (ev) => { ev.preventDefault(); drop.classList.add('over'); };
  drop.ondragleave = () => drop.classList.remove('over');
  drop.ondrop = async (ev) => {
    ev.preventDefault();
    drop.classList.remove('over');
    const f = ev.dataTransfer.files[0];
    if (f) loadMapText(await f.text(), f.name);
  };
  if (names.length) await fetchMap(names[0]);
  requestAnimationFrame(loop);
  window.pfDemo.ready = true;
}

// What the browser test drives (web/test_browser.js): the same steps as the mouse.
window.pfDemo = {
  ready: false,
  pause() { S.playing = false; $('play').textContent = 'play'; },
  loadMap: fetchMap,
  setAlgo(a) { S.algo = a; $('algo').value = String(a); return newSession(); },
  setBudget(e) { $('budget').value = String(e); },
  toggleBuilding, send,
  addUnit(x, y, size) { const u = addUnit(x, y, size); return u ? u.tag : 0; },
  sendTags(tags, gx, gy, prio) { send(S.units.filter((u) => tags.includes(u.tag)), gx, gy, prio); },
  step(n) { for (let i = 0; i < n; i++) stepFrame(); draw(); return S.frame; },
  runUntilIdle(max) { let n = 0; while (!idle() && n < max) { stepFrame(); n++; } draw(); return idle(); },
  log() { return S.log.join('\n') + '\n'; },
  csv() { return csvRows(); },
  verify,
  algoName() { return M.UTF8ToString(M._pfw_algo_name(S.algo)); },
  // the open cell nearest (x, y) where a unit of `size` fits, or null
  openCell(x, y, size) {
    for (let r = 0; r < 64; r++)
      for (let j = y - r; j <= y + r; j++)
        for (let i = x - r; i <= x + r; i++)
          if ((Math.abs(i - x) === r || Math.abs(j - y) === r) && i >= 0 && j >= 0 && i < S.w && j < S.h &&
              M._pfw_clearance(i, j) >= size) return [i, j];
    return null;
  },
  // places a building centred on (x, y) or a cell close to it; false when none fits there
  buildNear(x, y) {
    for (let r = 0; r < 8; r++)
      for (const [i, j] of [[x + r, y], [x - r, y], [x, y + r], [x, y - r]])
        if (!buildingAt(i, j) && !buildingAt(i + 3, j + 3) && !buildingAt(i - 3, j - 3) && toggleBuilding(i, j))
          return true;
    return false;
  },
  unitPath(tag) {
    const u = S.units.find((v) => v.tag === tag);
    return u && u.path ? Array.from(u.path.slice(u.at), (n) => [n % S.w, Math.floor(n / S.w)]) : [];
  },
  summary() {
    return { frame: S.frame, orders: S.orders.length, answered: S.orders.filter((r) => r.arrived >= 0).length,
             paths: S.orders.filter((r) => r.len > 0).length, traced: S.orders.filter((r) => r.trace && r.trace.length).length,
             sliced: S.orders.some((r) => r.arrived > r.submitted),
             sizes: new Set(S.orders.filter((r) => r.len > 0).map((r) => r.unit.size)).size,
             // searches of their own (not answered by a duplicate's or a group's search) whose
             // replay on the viewer context took another number of nodes off the open list than
             // the expansions and the goal (not an expansion; the accelerator's, answered by
             // "auto", ends its trace with the goal too: pf_search.h's trace contract)
             traceChecked: ownTraced().length,
             traceOff: ownTraced().filter((r) => r.trace.length !== r.expanded + 1)
               .map((r) => `order ${r.index} (${r.algoUsed}): drawn ${r.trace.length}, batch ${r.expanded}`),
             buildings: S.buildings.length, maxMs: S.last.maxMs, expanded: M._pfw_stat(0) };
  },
};

main().catch((e) => { console.error(e); message(String(e)); });
