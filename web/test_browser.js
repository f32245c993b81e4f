// test_browser.js - the browser test of the demo (ctest label `browser`, run by web/test_browser.sh).
//
// Serves the built page from a static file server in this process, drives headless Chromium through
// the DevTools protocol over --remote-debugging-pipe (no npm package, no network), and for each
// algorithm of the page: loads the bundled map, places a building, drops units of three sizes,
// sends them, drops a building on a path in flight, and plays frames until every order is answered.
// The page's order log then goes to the native `pathfind replay` with the same budget, and its CSV
// back into the page, which compares every order (frame answered, status, cost, path length, path
// hash) and shows the outcome. Fails on any difference and on any console error or exception;
// saves a screenshot per algorithm.
//
//   node web/test_browser.js --page DIR --pathfind BIN --out DIR [--chromium PATH]
'use strict';
const http = require('http');
const fs = require('fs');
const path = require('path');
const os = require('os');
const { spawn, execFileSync } = require('child_process');

const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
const PAGE = args.page, OUT = args.out, PATHFIND = path.resolve(args.pathfind), CHROMIUM = args.chromium || 'chromium';
const MAP = 'demo-512.map';
const BUDGET = 6000;           // expansions a frame: long moves take several frames
const ALGOS = [1, 6, 7, 8, 9]; // A*, JPS, JPS+, auto, Theta*

function fail(msg) { console.error('test_browser: FAIL: ' + msg); process.exitCode = 1; }

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.map': 'text/plain',
                '.txt': 'text/plain' };
function serve(root) {
  const srv = http.createServer((req, res) => {
    const rel = decodeURIComponent(new URL(req.url, 'http://x').pathname).replace(/^\/+/, '') || 'index.html';
    const file = path.join(root, rel);
    if (!file.startsWith(root) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404); res.end(); return;
    }
    res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((ok) => srv.listen(0, '127.0.0.1', () => ok(srv)));
}

// The DevTools protocol over the pipe: JSON messages ended by a NUL byte, fd 3 in, fd 4 out.
class Cdp {
  constructor(proc) {
    this.proc = proc; this.next = 1; this.waiting = new Map(); this.listeners = []; this.buf = '';
    proc.stdio[4].on('data', (d) => {
      this.buf += d.toString('utf8');
      let z;
      while ((z = this.buf.indexOf('\0')) >= 0) {
        const msg = JSON.parse(this.buf.slice(0, z));
        this.buf = this.buf.slice(z + 1);
        if (msg.id && this.waiting.has(msg.id)) {
          const { ok, no } = this.waiting.get(msg.id);
          this.waiting.delete(msg.id);
          if (msg.error) no(new Error(JSON.stringify(msg.error))); else ok(msg.result);
        } else if (msg.method) for (const l of this.listeners) l(msg);
      }
    });
  }
  send(method, params = {}, sessionId) {
    const id = this.next++;
    const msg = { id, method, params };
    if (sessionId) msg.sessionId = sessionId;
    this.proc.stdio[3].write(JSON.stringify(msg) + '\0');
    return new Promise((ok, no) => this.waiting.set(id, { ok, no }));
  }
}

async function main() {
  fs.mkdirSync(OUT, { recursive: true });
  const root = path.resolve(PAGE);
  const srv = await serve(root);
  const url = `http://127.0.0.1:${srv.address().port}/index.html`;
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-chromium-'));
  const flags = ['--headless=new', '--remote-debugging-pipe', '--no-first-run', '--no-default-browser-check',
                 '--disable-gpu', '--disable-dev-shm-usage', `--user-data-dir=${profile}`, '--window-size=1200,900'];
  if (process.getuid && process.getuid() === 0) flags.push('--no-sandbox'); // Chromium refuses root otherwise
  const proc = spawn(CHROMIUM, [...flags, 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
  let chromeErr = '';
  proc.stderr.on('data', (d) => { chromeErr += d; });
  const cdp = new Cdp(proc);
  const problems = [];
  try {
    const { targetId } = await cdp.send('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = await cdp.send('Target.attachToTarget', { targetId, flatten: true });
    cdp.listeners.push((m) => {
      if (m.sessionId !== sessionId) return;
      if (m.method === 'Runtime.consoleAPICalled' && (m.params.type === 'error' || m.params.type === 'assert'))
        problems.push('console.error: ' + m.params.args.map((a) => a.value ?? a.description).join(' '));
      if (m.method === 'Runtime.exceptionThrown')
        problems.push('exception: ' + (m.params.exceptionDetails.exception?.description || m.params.exceptionDetails.text));
      if (m.method === 'Log.entryAdded' && m.params.entry.level === 'error')
        problems.push('log: ' + m.params.entry.text + ' ' + (m.params.entry.url || ''));
    });
    const S = (method, params) => cdp.send(method, params, sessionId);
    await S('Runtime.enable'); await S('Log.enable'); await S('Page.enable');
    const ev = async (expr) => {
      const r = await S('Runtime.evaluate', { expression: expr, awaitPromise: true, returnByValue: true });
      if (r.exceptionDetails) throw new Error(expr.slice(0, 80) + ': ' + (r.exceptionDetails.exception?.description || r.exceptionDetails.text));
      return r.result.value;
    };
    await S('Page.navigate', { url });
    const t0 = Date.now();
    while (!(await ev('!!(window.pfDemo && window.pfDemo.ready)').catch(() => false))) {
      if (Date.now() - t0 > 60000) throw new Error('the page did not get ready in 60 s');
      await new Promise((r) => setTimeout(r, 100));
    }
    await ev('pfDemo.pause()');
    for (const algo of ALGOS) {
      const name = await ev(`pfDemo.loadMap(${JSON.stringify(MAP)}).then(() => pfDemo.setAlgo(${algo}))` +
                            `.then(() => (pfDemo.setBudget(${BUDGET}), pfDemo.algoName()))`);
      const s = await ev(`(${scenario.toString()})()`);
      const log = await ev('pfDemo.log()');
      const logFile = path.join(OUT, `browser-${name}.orders.txt`), csvFile = path.join(OUT, `browser-${name}.csv`);
      fs.writeFileSync(logFile, log);
      // the page rebuilds the accelerator inside each edit (one thread, no background build):
      // replay does the same with --accel-adopt-frames 0
      const adopt = name === 'auto' ? ['--accel-adopt-frames', '0'] : [];
      execFileSync(PATHFIND, ['replay', path.join(root, 'maps', MAP), logFile, '--workers', '1', '--slots', '2',
                              '--budget-exp', String(BUDGET), '--algo', name, ...adopt, '--csv', csvFile],
                   { env: { ...process.env, OMP_WAIT_POLICY: 'passive' }, stdio: ['ignore', 'ignore', 'inherit'] });
      const check = await ev(`pfDemo.verify(${JSON.stringify(fs.readFileSync(csvFile, 'utf8'))})`);
      const shot = await S('Page.captureScreenshot', { format: 'png' });
      fs.writeFileSync(path.join(OUT, `browser-${name}.png`), Buffer.from(shot.data, 'base64'));
      console.log(`${name}: ${s.units} units, ${s.edits} edits, ${check.compared} orders over ${s.frames} frames, ` +
                  `${check.paths} paths, ${s.traced} searches drawn (${s.traceChecked} checked against the batch's expansions); page frame max ${s.maxMs.toFixed(1)} ms; ` +
                  (check.ok ? 'all equal to pathfind replay' : 'MISMATCH'));
      if (!check.ok) fail(`${name}: ${check.mismatches.slice(0, 5).join('; ')}`);
      if (!s.idle) fail(`${name}: orders still pending after ${s.frames} frames`);
      if (check.paths < s.units) fail(`${name}: ${check.paths} paths for ${s.units} units`);
      if (s.edits < 2) fail(`${name}: ${s.edits} buildings placed, 2 wanted`);
      if (!s.sliced) fail(`${name}: no order took more than one frame (the budget did not bite)`);
      if (s.traced === 0) fail(`${name}: no expanded cells drawn`);
      if (s.sizes < 3) fail(`${name}: paths for ${s.sizes} unit sizes, 3 wanted`);
      // a search replayed for its cells must expand what the batch's did (searches of their own only)
      if (s.traceOff.length) fail(`${name}: drawn searches differ from the batch's: ${s.traceOff.slice(0, 3).join('; ')}`);
    }
  } catch (e) {
    fail(e.stack || String(e));
    if (chromeErr) console.error(chromeErr.slice(-2000));
  } finally {
    for (const p of problems) fail('page: ' + p);
    const exited = new Promise((ok) => proc.once('exit', ok));
    await cdp.send('Browser.close').catch(() => proc.kill());
    await Promise.race([exited, new Promise((ok) => setTimeout(ok, 5000))]);
    if (proc.exitCode === null) { proc.kill('SIGKILL'); await exited; }
    srv.close();
    fs.rmSync(profile, { recursive: true, force: true, maxRetries: 3 });
  }
  if (!process.exitCode) console.log('test_browser: ok, screenshots in ' + OUT);
}

// Runs in the page: the session a player would make with the mouse, on the bundled map.
function scenario() {
  const D = window.pfDemo;
  let edits = 0;
  if (D.buildNear(250, 250)) edits++;               // a building before any order
  const tags = [];
  for (let k = 0; k < 12; k++) {                      // units of sizes 1 and 2 in the top-left (the
    const c = D.openCell(30 + 9 * (k % 4), 30 + 9 * Math.floor(k / 4), 1 + (k % 2)); // map's passages
    if (c) tags.push(D.addUnit(c[0], c[1], 1 + (k % 2)));                           // are narrow for 3)
  }
  const big = D.openCell(100, 100, 3);                 // and one of size 3 with a short way to go
  tags.push(D.addUnit(big[0], big[1], 3));
  const bigGoal = D.openCell(112, 104, 3);
  D.sendTags([tags[12]], bigGoal[0], bigGoal[1], 0);
  const goal = D.openCell(440, 430, 3);
  D.sendTags(tags.slice(0, 6), goal[0], goal[1], 0); // normal: long moves across the map
  const near = D.openCell(60, 70, 3);
  D.sendTags(tags.slice(6, 9), near[0], near[1], 1); // urgent: short moves
  const far = D.openCell(450, 60, 3);
  D.sendTags(tags.slice(9, 12), far[0], far[1], 2);      // background
  D.step(2);
  for (let f = 0; f < 80 && D.unitPath(tags[0]).length === 0; f++) D.step(1);
  const p = D.unitPath(tags[0]);                      // a building on a path in flight
  if (p.length > 40) for (let i = 30; i < p.length - 5 && !D.buildNear(p[i][0], p[i][1]); i += 3);
  edits = D.summary().buildings;
  D.step(1);
  const idle = D.runUntilIdle(3000);
  const s = D.summary();
  return { units: tags.length, edits, frames: s.frame, idle, traced: s.traced, maxMs: s.maxMs, sliced: s.sliced,
           sizes: s.sizes, traceChecked: s.traceChecked, traceOff: s.traceOff };
}

main();
