#!/usr/bin/env python3
"""Field ownership and call graph among batch/src files.
usage: tools/batch_layers.py batch/src   (exit 1 when the files call each other in a circle)
Fields: every member of struct pf_batch (inside anonymous sub-structs too). A group's owner is the
first `name.c` in the comment that opens it (`struct { /* queries.c: ... */`); fields before the
first group belong to batch.c (made with the batch, read by all). Calls: a file calls another when
it names a function (or a macro that expands to one) defined there: non-static functions in .c
files, and static inline functions of batch_internal.h, which belong to the file whose section
(`/* ---- name.c: ...`) they stand in."""
import re, sys, os, glob, collections

src = sys.argv[1]
files = sorted(glob.glob(os.path.join(src, '*.c')))
hdr = os.path.join(src, 'batch_internal.h')
raw_h = open(hdr).read()

def strip(text):
    text = re.sub(r'/\*.*?\*/', lambda m: '\n' * m.group(0).count('\n'), text, flags=re.S)
    text = re.sub(r'//[^\n]*', '', text)
    return re.sub(r'"(\\.|[^"\\])*"', '""', text)

# ---- fields and owners (from the raw header: comments carry the owners)
m = re.search(r'struct pf_batch\s*\{(.*?)\n\};', raw_h, re.S)
body = m.group(1)
fields, owner = [], {}
cur = 'batch.c'
body = re.sub(r'struct\s*\{\s*/\*\s*(\w+\.c)[^*]*\*/', r'@OWNER \1;', body)
body = re.sub(r'\};', '@END;', strip(body))
for code in body.split(';'):
    code = code.strip()
    if not code: continue
    if code.startswith('@OWNER'): cur = code.split()[1]; continue
    if code == '@END': cur = 'batch.c'; continue
    decl = re.sub(r'\[[^\]]*\]', '', code)
    parts = decl.split(',')
    names = re.findall(r'(\w+)\s*$', parts[0]) + [re.sub(r'\W', '', p) for p in parts[1:]]
    for n in names:
        if n:
            fields.append(n)
            owner[n] = 'shared' if n == 'st' else cur

htext = strip(raw_h)
macros = {}
for mm in re.finditer(r'#define\s+(PF__\w+)\([^)]*\)\s*(.*)', htext):
    for c in re.findall(r'\b(pf_\w+)\s*\(', mm.group(2)):
        macros.setdefault(mm.group(1), set()).add(c)

defs = {}
section = None
for line in raw_h.split('\n'):
    g = re.match(r'/\* -{4} (\w+\.c)\b', line)
    if g: section = g.group(1)
    g = re.match(r'static inline [\w \*]*?\b(pf__\w+)\s*\(', line)
    if g and section: defs[g.group(1)] = section
inline_defs = dict(defs)

WRITE = r'(\s*(\[[^\]]*\]|\.\w+))*\s*(=(?!=)|\+=|-=|\|=|&=|\^=|\+\+|--)'
texts = {os.path.basename(f): strip(open(f).read()) for f in files}
for f, t in texts.items():
    for mm in re.finditer(r'^(?!static)[A-Za-z_][\w \t\*]*?\b(pf_\w+)\s*\([^;{]*\)\s*\{', t, re.M):
        defs[mm.group(1)] = f

use = collections.defaultdict(lambda: collections.defaultdict(lambda: [0, 0, 0]))
for f, t in texts.items():
    for fld in fields:
        for mm in re.finditer(r'\bb->' + fld + r'\b', t):
            before = t[:mm.start()].rstrip()
            if before.endswith('++') or before.endswith('--') or re.match(WRITE, t[mm.end():]):
                use[f][fld][1] += 1
            elif before.endswith('&') and not before.endswith('&&'):
                use[f][fld][2] += 1   # address passed on
            else:
                use[f][fld][0] += 1
# inline accessors touch their owner's fields on the owner's behalf: count them for the owner
hfuncs = collections.defaultdict(str)
for mm in re.finditer(r'static inline [^{;]*?\b(pf__\w+)\s*\([^)]*\)\s*\{(.*?)\n?\}', htext, re.S):
    hfuncs[inline_defs.get(mm.group(1), '?')] += mm.group(2)
header_use = collections.defaultdict(set)
for f, t in hfuncs.items():
    for fld in fields:
        if re.search(r'\bb->' + fld + r'\b', t): header_use[fld].add(f + '(h)')

calls = collections.defaultdict(lambda: collections.defaultdict(set))
for f, t in texts.items():
    for n in set(re.findall(r'\b(pf_\w+|PF__\w+)\s*\(', t)):
        for c in macros.get(n, {n}):
            d = defs.get(c)
            if d and d != f: calls[f][d].add(c)

print('struct pf_batch: %d fields' % len(fields))
groups = collections.defaultdict(list)
for fld in fields: groups[owner[fld]].append(fld)
for o in groups:
    print('  %-12s %2d: %s' % (o, len(groups[o]), ' '.join(groups[o])))
print('\nfields each file names (b->FIELD; * = writes, & = passes its address on):')
for f in texts:
    touched = use[f]
    nw = sum(1 for v in touched.values() if v[1])
    print('  %-13s %2d fields (writes %2d): %s' % (f, len(touched), nw,
          ' '.join(k + ('*' if v[1] else ('&' if v[2] else '')) for k, v in sorted(touched.items()))))
cnt = collections.Counter(len([f for f in texts if fld in use[f]]) for fld in fields)
print('\nfields named by N files: ' + ', '.join('%d file(s): %d' % (k, cnt[k]) for k in sorted(cnt)))
cw = collections.Counter(len([f for f in texts if fld in use[f] and use[f][fld][1]]) for fld in fields if any(fld in use[f] for f in texts))
print('fields written by N files: ' + ', '.join('%d file(s): %d' % (k, cw[k]) for k in sorted(cw)))
print('\nfields named outside their owner (config fields of batch.c may be read by all):')
bad = 0
for fld in fields:
    o = owner[fld]
    for f in texts:
        if f == o or fld not in use[f]: continue
        r, w, a = use[f][fld]
        if o == 'batch.c' and not w: continue
        if o == 'shared': continue
        bad += 1
        print('  %-14s owner %-12s named in %s (%d reads, %d writes, %d addresses)' % (fld, o, f, r, w, a))
print('  none' if not bad else '  %d' % bad)
print('\ncalls between files (caller -> callee: functions):')
edges = 0
for f in sorted(calls):
    for d in sorted(calls[f]):
        edges += 1
        print('  %-13s -> %-13s %s' % (f, d, ' '.join(sorted(calls[f][d]))))
print('%d edges between %d files' % (edges, len(texts)))
graph = {f: set(calls[f]) for f in texts}
index, low, stack, on, sccs, cnt_ = {}, {}, [], set(), [], [0]
def sc(v):
    index[v] = low[v] = cnt_[0]; cnt_[0] += 1; stack.append(v); on.add(v)
    for w in graph[v]:
        if w not in index: sc(w); low[v] = min(low[v], low[w])
        elif w in on: low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop(); on.discard(w); comp.append(w)
            if w == v: break
        sccs.append(comp)
sys.setrecursionlimit(10000)
for v in graph:
    if v not in index: sc(v)
cyc = [c for c in sccs if len(c) > 1]
if cyc:
    print('CYCLES: ' + '; '.join('{' + ' '.join(sorted(c)) + '}' for c in cyc))
    sys.exit(1)
lvl = {}
def level(v):
    if v not in lvl: lvl[v] = 1 + max([level(w) for w in graph[v]], default=-1)
    return lvl[v]
for v in graph: level(v)
print('acyclic; layers (0 = bottom; each file calls only lower layers):')
for l in sorted(set(lvl.values())):
    print('  %d: %s' % (l, ' '.join(sorted(v for v in lvl if lvl[v] == l))))
