#!/usr/bin/env python3
"""Checks a browser's screenshot of a dlxc SVG picture, pixel by pixel.

    check_png.py PICTURE.svg SCREENSHOT.png TEXT.txt [--labels] [--boxes=N]

TEXT.txt is what `dlxc run` printed for the same solution (the text grid). The checks:

- every cell of the SVG shows in the text grid at its (row, column), with the same text
  (so the picture is of the solution printed);
- the pixel at the centre of every cell has the cell's fill color (without labels), or
  the cell holds dark label pixels (with --labels);
- every third pixel (in both directions) more than 3.5 pixels from a cell's side is
  its cell's fill (without labels), or the white background outside every cell;
- the fills seen on screen are the fills of the painted cells, as many as there are
  distinct texts in the text grid: one color per piece letter or digit; except for a
  grid in one ink (a model with `draw region` whose pieces are single cells), whose
  cells are all white but the clues (forced options), grey;
- the region lines (`draw region`): the middle of each of their sides is dark on
  screen, and the middle of every other side between two cells of one piece is not;
  with --boxes=N, the thick sides are exactly those between N x N boxes (a sudoku's);
- the notes (`draw note`) and the layers' captions show as pixels of their own.

Standard library only: the PNG is decoded here (8-bit RGB or RGBA, not interlaced).
"""

import re
import struct
import sys
import zlib

WHITE = (255, 255, 255)
CANVAS = (0xEE, 0xEE, 0xEE)
TOLERANCE = 3


def decode_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit(f"{path}: not a PNG")
    pos, idat, width = 8, b"", None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        body = data[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or color not in (2, 6) or interlace:
                raise SystemExit(f"{path}: PNG kind not handled ({depth=}, {color=})")
            bpp = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += body
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, lambda x, y: tuple(rows[y][x * bpp : x * bpp + 3])


def hex_color(s):
    return tuple(int(s[i : i + 2], 16) for i in (1, 3, 5))


def close(p, q):
    return all(abs(a - b) <= TOLERANCE for a, b in zip(p, q))


def parse_svg(path):
    svg = open(path, encoding="utf-8").read()
    cells = []
    for m in re.finditer(r'<polygon points="([^"]*)" fill="(#[0-9a-f]{6})" data-cell="(-?\d+),(-?\d+)" data-text="([^"]*)"', svg):
        pts = [tuple(map(float, p.split(","))) for p in m.group(1).split()]
        cells.append(
            {
                "points": pts,
                "fill": hex_color(m.group(2)),
                "row": int(m.group(3)),
                "col": int(m.group(4)),
                "text": m.group(5),
            }
        )
    size = re.search(r'<svg [^>]*width="(\d+)" height="(\d+)"', svg)
    return cells, int(size.group(1)), int(size.group(2))


def segments(svg_text, what):
    """The segments of the paths drawn with `data-lines="WHAT"`."""
    out = []
    for m in re.finditer(r'<path d="([^"]*)"[^>]*data-lines="' + what + '"', svg_text):
        for a, b, c, d in re.findall(r"M(-?[\d.]+) (-?[\d.]+)L(-?[\d.]+) (-?[\d.]+)", m.group(1)):
            out.append(((float(a), float(b)), (float(c), float(d))))
    return out


def side_key(p, q):
    k = lambda pt: (round(pt[0], 1), round(pt[1], 1))
    return tuple(sorted((k(p), k(q))))


def inside(pt, poly):
    x, y = pt
    hit = False
    for i in range(len(poly)):
        (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % len(poly)]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit


def distance_to_sides(pt, poly):
    best = float("inf")
    x, y = pt
    for i in range(len(poly)):
        (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % len(poly)]
        dx, dy = x2 - x1, y2 - y1
        t = max(0.0, min(1.0, ((x - x1) * dx + (y - y1) * dy) / (dx * dx + dy * dy)))
        best = min(best, ((x - x1 - t * dx) ** 2 + (y - y1 - t * dy) ** 2) ** 0.5)
    return best


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    labels = "--labels" in sys.argv
    svg_path, png_path, text_path = args
    cells, svg_w, svg_h = parse_svg(svg_path)
    width, height, pixel = decode_png(png_path)
    text = open(text_path, encoding="utf-8").read().rstrip("\n").split("\n")
    failures = []
    if not cells:
        raise SystemExit(f"{svg_path}: no cells")
    if width < svg_w or height < svg_h:
        failures.append(f"screenshot {width}x{height} smaller than the picture {svg_w}x{svg_h}")

    # The picture is the text grid: the same text at every cell's place.
    r0 = min(c["row"] for c in cells)
    c0 = min(c["col"] for c in cells)
    for c in cells:
        line = text[c["row"] - r0] if c["row"] - r0 < len(text) else ""
        k = c["col"] - c0
        shown = line[k] if k < len(line) else None
        if shown != c["text"]:
            failures.append(f"cell {c['row']},{c['col']} is {c['text']!r} in the SVG, {shown!r} in the text")

    # Each cell's centre shows its fill (or its label).
    for c in cells:
        n = len(c["points"])
        cx = sum(p[0] for p in c["points"]) / n
        cy = sum(p[1] for p in c["points"]) / n
        x, y = int(cx), int(cy)
        if labels:
            around = [pixel(x + dx, y + dy) for dx in range(-6, 7) for dy in range(-6, 7)]
            # Labels are black, or white on dark fills: pixels unlike the fill.
            if c["text"].strip() and c["text"] not in ".#" and all(close(p, c["fill"]) for p in around):
                failures.append(f"cell {c['row']},{c['col']}: no label pixels near ({x}, {y})")
        elif not close(pixel(x, y), c["fill"]):
            failures.append(f"cell {c['row']},{c['col']}: pixel ({x}, {y}) is {pixel(x, y)}, not its fill {c['fill']}")

    # Every pixel away from the cells' sides: inside a cell, that cell's fill (without
    # labels, which would cover some); outside every cell, the white background.
    for c in cells:
        xs = [p[0] for p in c["points"]]
        ys = [p[1] for p in c["points"]]
        c["box"] = (min(xs) - 4, min(ys) - 4, max(xs) + 4, max(ys) + 4)
    seen, outside, inner = set(), 0, 0
    # The layers' captions are over the background: their boxes are checked below.
    caption_boxes = [(float(x) - 70, float(y) - 16, float(x) + 70, float(y) + 5) for x, y in re.findall(
        r'<text x="([\d.]+)" y="([\d.]+)" data-layer=', open(svg_path, encoding="utf-8").read())]
    for y in range(1, min(height, svg_h) - 1, 3):
        for x in range(1, min(width, svg_w) - 1, 3):
            pt = (x + 0.5, y + 0.5)
            near = [c for c in cells if c["box"][0] <= pt[0] <= c["box"][2] and c["box"][1] <= pt[1] <= c["box"][3]]
            if any(distance_to_sides(pt, c["points"]) < 3.5 for c in near):
                continue
            home = next((c for c in near if inside(pt, c["points"])), None)
            if home is None and any(b[0] <= pt[0] <= b[2] and b[1] <= pt[1] <= b[3] for b in caption_boxes):
                continue
            if home is None:
                outside += 1
                if not close(pixel(x, y), WHITE):
                    failures.append(f"background pixel ({x}, {y}) is {pixel(x, y)}")
            elif not labels:
                inner += 1
                seen.add(home["fill"])
                if not close(pixel(x, y), home["fill"]):
                    failures.append(f"pixel ({x}, {y}) of cell {home['row']},{home['col']} is {pixel(x, y)}, not {home['fill']}")

    svg_text = open(svg_path, encoding="utf-8").read()
    walls = segments(svg_text, "regions")
    dark = lambda pt: sum(pixel(int(pt[0]), int(pt[1]))) < 200
    mid = lambda a, b: ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    paper = {hex_color("#ffffff"), hex_color("#d9d9d9")}
    ink = bool(walls) and all(c["fill"] in paper | {CANVAS} for c in cells)
    if walls:
        for a, b in walls:
            if not dark(mid(a, b)):
                failures.append(f"region line {a}-{b}: its middle {mid(a, b)} is not dark on screen")
        wall_keys = {side_key(a, b) for a, b in walls}
        piece_keys = {side_key(a, b) for a, b in segments(svg_text, "pieces")}
        sides = {}
        for c in cells:
            pts = c["points"]
            for i in range(len(pts)):
                sides.setdefault(side_key(pts[i], pts[(i + 1) % len(pts)]), []).append(c)
        inner = 0
        for key, owners in sides.items():
            if len(owners) != 2 or key in wall_keys or key in piece_keys:
                continue
            inner += 1
            if dark(mid(*key)):
                failures.append(f"side {key} between cells {owners[0]['row']},{owners[0]['col']} and {owners[1]['row']},{owners[1]['col']} is dark, but no region line")
        boxes = next((int(a.split("=")[1]) for a in sys.argv if a.startswith("--boxes=")), None)
        if boxes:
            for key, owners in sides.items():
                if len(owners) != 2:
                    continue
                (p, q) = owners
                differ = (p["row"] // boxes, p["col"] // boxes) != (q["row"] // boxes, q["col"] // boxes)
                if differ != (key in wall_keys):
                    failures.append(f"side between {p['row']},{p['col']} and {q['row']},{q['col']}: thick is {key in wall_keys}, boxes of {boxes} say {differ}")
    elif "--boxes" in " ".join(sys.argv):
        failures.append("no region lines, and boxes were expected")
    if labels:
        for m in re.finditer(r'<text x="([\d.]+)" y="([\d.]+)"[^>]*data-note="[^"]*">([^<]*)<', svg_text):
            x, y = float(m.group(1)), float(m.group(2))
            spot = [pixel(int(x) + dx, int(y) + dy) for dx in range(0, 10) for dy in range(-8, 1)]
            if len(set(spot)) < 2:
                failures.append(f"note {m.group(3)!r} at ({x}, {y}): nothing drawn there")
        captions = re.findall(r'<text x="([\d.]+)" y="([\d.]+)" data-layer="[^"]*">([^<]*)<', svg_text)
        for x, y, caption in captions:
            x, y = float(x), float(y)
            if not any(dark((x + dx, y + dy)) for dx in range(-30, 31) for dy in range(-10, 2)):
                failures.append(f"caption {caption!r}: no dark pixels near ({x}, {y})")
        if captions and "(bottom)" not in captions[0][2]:
            failures.append(f"the first layer's caption {captions[0][2]!r} does not say it is the bottom")

    # One color per distinct text (piece letter, digit): on screen, as in the SVG.
    if not labels and not ink:
        fills = {c["fill"] for c in cells} - {CANVAS}
        texts = {ch for line in text for ch in line if ch not in ". "}
        if seen - {CANVAS} != fills:
            failures.append(f"colors on screen {sorted(seen)} are not the fills {sorted(fills)}")
        if len(fills) != len(texts):
            failures.append(f"{len(fills)} fill colors for {len(texts)} distinct texts {sorted(texts)}")

    name = svg_path.rsplit("/", 1)[-1]
    if failures:
        print(f"FAIL {name}:")
        for f in failures[:20]:
            print("   ", f)
        sys.exit(1)
    if labels:
        print(f"ok   {name}: {len(cells)} cells labelled, {outside} background pixels checked")
    else:
        print(f"ok   {name}: {len(cells)} cells, {len(seen)} colors, {inner} cell and {outside} background pixels checked")


if __name__ == "__main__":
    main()
