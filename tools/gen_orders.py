#!/usr/bin/env python3
"""tools/gen_orders.py MAP [--units N] [--frames F] [--seed S] > ORDERS

Writes an RTS order log for `pathfind replay` (format: `pathfind replay --help`) on a Moving AI map:
N units on open ground; at frame 0 every unit gets a long move (squads of ten share a goal, one
unit in ten is 2x2); then every frame a few short urgent moves, new long orders that supersede
old ones, the odd cancel, and every 15 frames a 6x6 building put up on open ground (each stands
30 frames, then is taken down). Deterministic for a seed. The bundled maps/demo-orders.txt is

    tools/gen_orders.py maps/demo-512.map --units 300 --frames 90 --seed 7 > maps/demo-orders.txt
"""
import random
import sys


def main():
    args = sys.argv[1:]
    if not args or args[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if args else 2
    opts = {"--units": 300, "--frames": 90, "--seed": 7}
    path = args[0]
    i = 1
    while i < len(args):
        if args[i] not in opts or i + 1 >= len(args):
            print(f"gen_orders.py: unknown option {args[i]}", file=sys.stderr)
            return 2
        opts[args[i]] = int(args[i + 1])
        i += 2
    rows = open(path).read().split("\n")
    h = int(rows[1].split()[1])
    w = int(rows[2].split()[1])
    grid = [r[:w] for r in rows[4:4 + h]]
    rng = random.Random(opts["--seed"])

    def ground(x, y, k=1):
        return all(0 <= x + dx < w and 0 <= y + dy < h and grid[y + dy][x + dx] in ".G"
                   for dx in range(k) for dy in range(k))

    def cell(k=1):
        while True:
            x, y = rng.randrange(w), rng.randrange(h)
            if ground(x, y, k):
                return x, y

    units = []
    for u in range(opts["--units"]):
        size = 2 if u % 10 == 9 else 1
        units.append([*cell(size), size])
    out = ["orders 1", f"# {opts['--units']} units on {path}, seed {opts['--seed']}"]
    buildings = []
    for fr in range(opts["--frames"]):
        if fr == 0:
            for s in range(0, len(units), 10):
                goal = cell(2)
                for u in range(s, min(s + 10, len(units))):
                    x, y, k = units[u]
                    out.append(f"0 {u} {x} {y} {goal[0]} {goal[1]} normal" + (f" size={k}" if k > 1 else ""))
                    units[u][:2] = goal  # a unit's next order starts where this one ends
            continue
        if fr % 15 == 0:
            bx, by = cell(6)
            out.append(f"{fr} rect {bx} {by} 6 6 @")
            buildings.append((fr + 30, bx, by))
        for b in [b for b in buildings if b[0] == fr]:
            out.append(f"{fr} rect {b[1]} {b[2]} 6 6 .")
            buildings.remove(b)
        for _ in range(rng.randrange(2, 6)):
            u = rng.randrange(len(units))
            x, y, k = units[u]
            gx, gy = x + rng.randrange(-12, 13), y + rng.randrange(-12, 13)
            if ground(gx, gy, k):
                out.append(f"{fr} {u} {x} {y} {gx} {gy} urgent" + (f" size={k}" if k > 1 else "") + " partial")
                units[u][:2] = gx, gy
        if fr % 3 == 0:
            u = rng.randrange(len(units))
            x, y, k = units[u]
            g = cell(k)
            out.append(f"{fr} {u} {x} {y} {g[0]} {g[1]} background" + (f" size={k}" if k > 1 else ""))
            units[u][:2] = g
        if fr % 10 == 5:
            out.append(f"{fr} {rng.randrange(len(units))} cancel")
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
