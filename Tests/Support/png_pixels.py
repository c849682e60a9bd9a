#!/usr/bin/env python3
"""Counts the pixels of given colours inside a rectangle of a PNG file, using only the standard library.

Usage: png_pixels.py IMAGE.png X Y WIDTH HEIGHT RRGGBB [RRGGBB ...]
       png_pixels.py IMAGE.png --rects X,Y,WIDTH,HEIGHT[;X,Y,WIDTH,HEIGHT...] RRGGBB [RRGGBB ...]

Prints one JSON object: {"width": W, "height": H, "counts": {"RRGGBB": N, ...}}; with --rects, "rects" instead
of "counts": a list with the counts inside each rectangle, in the order given (the image is decoded once). A pixel counts for a colour
when each channel is within 3 of it. Handles 8-bit truecolour PNGs (with or without alpha), not interlaced,
which is what Chromium writes; anything else is an error with exit status 1.
"""
import json
import struct
import sys
import zlib


def read_png(path):
    with open(path, "rb") as handle:
        data = handle.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path} is not a PNG file")
    position, idat, header = 8, [], None
    while position < len(data):
        (length,) = struct.unpack(">I", data[position:position + 4])
        kind = data[position + 4:position + 8]
        body = data[position + 8:position + 8 + length]
        position += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    if header is None:
        raise ValueError("the PNG has no IHDR chunk")
    width, height, depth, colour_type, _, _, interlace = header
    if depth != 8 or colour_type not in (2, 6) or interlace != 0:
        raise ValueError(f"unsupported PNG: depth {depth}, colour type {colour_type}, interlace {interlace}")
    channels = 4 if colour_type == 6 else 3
    raw = zlib.decompress(b"".join(idat))
    stride = width * channels
    rows, previous, offset = [], bytearray(stride), 0
    for _ in range(height):
        kind = raw[offset]
        line = bytearray(raw[offset + 1:offset + 1 + stride])
        offset += 1 + stride
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            up_left = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + ((left + up) >> 1)) & 0xFF
            elif kind == 4:
                estimate = left + up - up_left
                pa, pb, pc = abs(estimate - left), abs(estimate - up), abs(estimate - up_left)
                predictor = left if pa <= pb and pa <= pc else (up if pb <= pc else up_left)
                line[i] = (line[i] + predictor) & 0xFF
            elif kind != 0:
                raise ValueError(f"unknown PNG filter {kind}")
        rows.append(line)
        previous = line
    return width, height, channels, rows


def count(rows, width, height, channels, rect, colours):
    x, y, w, h = rect
    counts = {text: 0 for text in colours}
    for row in range(max(0, y), min(height, y + h)):
        line = rows[row]
        for column in range(max(0, x), min(width, x + w)):
            pixel = line[column * channels:column * channels + 3]
            for text, colour in colours.items():
                if all(abs(pixel[c] - colour[c]) <= 3 for c in range(3)):
                    counts[text] += 1
    return counts


def main(arguments):
    many = len(arguments) >= 4 and arguments[2] == "--rects"
    if len(arguments) < (4 if many else 7):
        print(__doc__, file=sys.stderr)
        return 2
    path = arguments[1]
    if many:
        rects = [tuple(int(value) for value in text.split(",")) for text in arguments[3].split(";") if text]
        if any(len(rect) != 4 for rect in rects):
            print("png_pixels: each rectangle is X,Y,WIDTH,HEIGHT", file=sys.stderr)
            return 2
        colour_texts = arguments[4:]
    else:
        rects = [tuple(int(value) for value in arguments[2:6])]
        colour_texts = arguments[6:]
    colours = {text: tuple(int(text[i:i + 2], 16) for i in (0, 2, 4)) for text in colour_texts}
    try:
        width, height, channels, rows = read_png(path)
    except (OSError, ValueError, zlib.error) as error:
        print(f"png_pixels: {error}", file=sys.stderr)
        return 1
    results = [count(rows, width, height, channels, rect, colours) for rect in rects]
    if many:
        print(json.dumps({"width": width, "height": height, "rects": results}))
    else:
        print(json.dumps({"width": width, "height": height, "counts": results[0]}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
