#!/usr/bin/env python3
"""tools/erode_map.py MAP K OUT

Writes OUT, the Moving AI map MAP with every cell where a KxK unit cannot stand blocked ('@'): a
unit stands on cell (x, y) when the K x K block with (x, y) as its top-left corner lies on the map
and all its cells are of one terrain class (ground . G S, water W, trees T), the rule of
pf_search_desc.unit_size (tests/support/testutil.h erode_cells). `scen --size K` on MAP searches
what a one-cell search of OUT does, so the two compare sized JPS with JPS on the eroded map
(docs/units.md, "Sizes"). OUT is written whole to a temporary file beside it, then renamed over it (a link is
followed, its target replaced); a device, a pipe or the process's own stdout is written in place.
"""
import os
import stat
import sys

CLASS = {".": 1, "G": 1, "S": 1, "W": 2, "T": 3, "@": 0, "O": 0}


def fail(msg):
    print("erode_map.py: " + msg, file=sys.stderr)
    sys.exit(2)


def main():
    args = sys.argv[1:]
    if len(args) != 3 or args[0] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stdout if args[:1] in (["-h"], ["--help"]) else sys.stderr)
        return 0 if args[:1] in (["-h"], ["--help"]) else 2
    src, k_text, dst = args
    if not k_text.isdigit() or not 1 <= int(k_text) <= 8:
        fail("K must be 1 to 8, not '%s'" % k_text)
    k = int(k_text)
    if os.path.abspath(src) == os.path.abspath(dst):
        fail("OUT names MAP: write the eroded map elsewhere")
    try:
        with open(src, encoding="ascii") as f:
            lines = f.read().split("\n")
    except (OSError, UnicodeDecodeError) as e:
        fail("%s: %s" % (src, e))
    try:
        at = next(i for i, l in enumerate(lines) if l.strip() == "map")
        head = lines[: at + 1]
        dims = dict(l.split()[:2] for l in head if len(l.split()) == 2)
        w, h = int(dims["width"]), int(dims["height"])
    except (StopIteration, KeyError, ValueError):
        fail("%s: not a Moving AI map (no 'height', 'width' and 'map' lines)" % src)
    rows = [l.rstrip("\r") for l in lines[at + 1 : at + 1 + h]]
    if len(rows) != h or any(len(r) != w for r in rows):
        fail("%s: expected %d rows of %d cells" % (src, h, w))
    bad = next((ch for r in rows for ch in r if ch not in CLASS), None)
    if bad is not None:
        fail("%s: unknown terrain character %r" % (src, bad))
    cls = [[CLASS[ch] for ch in r] for r in rows]
    out = []
    for y in range(h):
        row = list(rows[y])
        for x in range(w):
            c = cls[y][x]
            ok = c != 0 and x + k <= w and y + k <= h
            if ok:
                ok = all(cls[y + dy][x + dx] == c for dy in range(k) for dx in range(k))
            if not ok:
                row[x] = "@"
        out.append("".join(row))
    text = "\n".join(head + out) + "\n"
    # As the library writes a user's file (core/src/common/file_out.c): a link is followed and its
    # target replaced whole; a device, a pipe or this process's own stdout or stderr (/dev/stdout
    # redirected to a file) is written in place. Renamed over, /dev/stdout's link became a file.
    target = os.path.realpath(dst)
    in_place = dst.startswith(("/dev/", "/proc/"))
    if os.path.exists(target):
        st = os.stat(target)
        if not stat.S_ISREG(st.st_mode):
            in_place = True
        for fd in (1, 2):
            try:
                fs = os.fstat(fd)
            except OSError:
                continue
            if (fs.st_dev, fs.st_ino) == (st.st_dev, st.st_ino):
                in_place = True
    if in_place:
        try:
            with open(dst, "w", encoding="ascii") as f:
                f.write(text)
        except OSError as e:
            fail("%s: %s" % (dst, e))
        return 0
    tmp = target + ".tmp%d" % os.getpid()
    try:
        with open(tmp, "x", encoding="ascii") as f:
            f.write(text)
        os.replace(tmp, target)
    except OSError as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        fail("%s: %s" % (dst, e))
    return 0


if __name__ == "__main__":
    sys.exit(main())
