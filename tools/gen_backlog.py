#!/usr/bin/env python3
"""tools/gen_backlog.py MAP [--orders N] [--seed S] [--min-dist D] > ORDERS

Writes a backlog for `pathfind replay`: N long moves (default 40), all given at frame 0 by N
distinct one-cell units, each start and goal on open ground at least D cells apart on one axis
(default 1000). Nothing else happens, so the number of frames a replay takes to answer them all
measures what its workers get through under a time budget (docs/batches-and-frames.md, round
four). Deterministic for a seed:

    tools/gen_backlog.py rooms-2000.map --seed 7 > backlog.txt
    pathfind replay rooms-2000.map backlog.txt --budget-us 4000 --workers 2
"""
import argparse
import random
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("map")
    ap.add_argument("--orders", type=int, default=40)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--min-dist", type=int, default=1000)
    a = ap.parse_args()
    with open(a.map) as f:
        rows = f.read().split("\n")
    h = int(next(r for r in rows if r.startswith("height")).split()[1])
    w = int(next(r for r in rows if r.startswith("width")).split()[1])
    grid = rows[rows.index("map") + 1:][:h]
    if a.min_dist >= max(w, h):
        sys.exit(f"gen_backlog.py: --min-dist {a.min_dist} does not fit a {w}x{h} map")
    rnd = random.Random(a.seed)

    def open_cell():
        for _ in range(1000000):
            x, y = rnd.randrange(w), rnd.randrange(h)
            if grid[y][x] in ".GS":
                return x, y
        sys.exit("gen_backlog.py: no open ground found")

    print("orders 1")
    print(f"# {a.orders} long orders at frame 0, seed {a.seed}")
    for tag in range(a.orders):
        while True:
            (sx, sy), (gx, gy) = open_cell(), open_cell()
            if max(abs(sx - gx), abs(sy - gy)) >= a.min_dist:
                break
        print(f"0 {tag} {sx} {sy} {gx} {gy} normal")


if __name__ == "__main__":
    main()
