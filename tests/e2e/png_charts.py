#!/usr/bin/env python3
"""Check a screenshot of an iodash report: not blank, and every metric
chart's plot area holds the curve of every label.

usage: png_charts.py SHOT.png PLOT_WIDTH COLOUR... (colours as rrggbb)

A plot area is found by its frame: a crisp #888888 rectangle PLOT_WIDTH
pixels wide.  Inside each frame found, each COLOUR (a label's line colour)
must cover at least 40 pixels.  Prints what it found; exit 0 when all
holds, 1 when not.  Plain python3 (zlib): no imaging library needed."""
import struct
import sys
import zlib


def read_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit("%s: not a PNG" % path)
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or interlace:
                raise SystemExit("%s: PNG layout %d/%d/%d not handled" % (path, depth, ctype, interlace))
            bpp = 4 if ctype == 6 else 3
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + ((a + b) >> 1)) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def main():
    path, width, colours = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    w, h, bpp, rows = read_png(path)
    px = lambda x, y: rows[y][x * bpp:x * bpp + 3]
    white = b"\xff\xff\xff"
    inked = sum(1 for y in range(0, h, 2) for x in range(0, w, 2) if px(x, y) != white)
    share = inked / ((w // 2) * (h // 2))
    print("image %dx%d, %.1f%% of it not white" % (w, h, share * 100))
    ok = share > 0.02
    # frames: a row holding a run of exactly `width`+1 (or width) grey
    # pixels, and the same run again lower down: top and bottom edges
    grey = b"\x88\x88\x88"
    runs = {}
    for y in range(h):
        r = rows[y]
        x = 0
        while x < w:
            if r[x * bpp:x * bpp + 3] == grey:
                x0 = x
                while x < w and r[x * bpp:x * bpp + 3] == grey:
                    x += 1
                if abs((x - x0) - width) <= 2:
                    runs.setdefault((x0, x), []).append(y)
            x += 1
    frames = []
    for (x0, x1), ys in runs.items():
        ys.sort()
        i = 0
        while i + 1 < len(ys):
            # the left edge must join the two rows: grey all the way down
            top, bot = ys[i], ys[i + 1]
            if bot - top > 40 and all(px(x0, y) == grey for y in range(top, bot)):
                frames.append((x0, top, x1, bot))
                i += 2
            else:
                i += 1
    frames.sort(key=lambda f: (f[1], f[0]))
    print("%d chart frames %d px wide" % (len(frames), width))
    if not frames:
        ok = False
    want = [bytes.fromhex(c) for c in colours]
    for (x0, y0, x1, y1) in frames:
        counts = []
        for c in want:
            counts.append(sum(1 for y in range(y0 + 1, y1) for x in range(x0 + 1, x1 - 1) if px(x, y) == c))
        print("frame at %d,%d: %s" % (x0, y0, " ".join("%s=%d" % (colours[i], n) for i, n in enumerate(counts))))
        if min(counts) < 40:
            ok = False
    return 0 if ok else 1


sys.exit(main())
