#!/usr/bin/env python3
"""Draws a LOOM_TraceFile timeline (Chrome trace-event JSON) as a static SVG in an HTML page.

Not a trace viewer: Perfetto's UI (https://ui.perfetto.dev) and chrome://tracing are the tools to
explore a trace. This page exists so that a picture of a trace can be made offline with a
headless browser (docs/tracing.md shows one):

  python3 scripts/render_trace.py trace.json trace.html [--from-event NAME] [--to-us T]
  chromium --headless --screenshot=trace.png --window-size=1600,700 trace.html

One row per track (application threads, then each engine and its device or tiles), complete
("X") events as boxes colored by category, nested events below the event that encloses them,
and submission arrows as lines.

--from-event NAME  starts the picture at the first event called NAME (default: the trace's start)
--from-us, --to-us the window in trace microseconds (--to-us default: the trace's end)
"""
import argparse
import html
import json

COLORS = {"api": "#4e79a7", "submission": "#9c755f", "stream": "#76b7b2", "kernel": "#e15759", "copy": "#f28e2b",
          "fill": "#edc948", "wait": "#bab0ac"}
ROW_HEIGHT = 22
LABEL_WIDTH = 300
WIDTH = 1580


def tracks_of(events):
    names, order = {}, {}
    for event in events:
        if event["ph"] == "M" and event["name"] == "thread_name":
            names[event["tid"]] = event["args"]["name"]
        if event["ph"] == "M" and event["name"] == "thread_sort_index":
            order[event["tid"]] = event["args"]["sort_index"]
    return names, sorted(names, key=lambda tid: (order.get(tid, -1), tid))


def depths(events):
    """The nesting depth of each event on its track (events sorted by start)."""
    open_ends, result = [], []
    for event in events:
        end = event["ts"] + event["dur"]
        while open_ends and open_ends[-1] <= event["ts"]:
            open_ends.pop()
        result.append(len(open_ends))
        open_ends.append(end)
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("trace")
    parser.add_argument("output")
    parser.add_argument("--from-event")
    parser.add_argument("--from-us", type=float)
    parser.add_argument("--to-us", type=float)
    options = parser.parse_args()

    with open(options.trace) as file:
        events = json.load(file)["traceEvents"]
    complete = sorted((e for e in events if e["ph"] == "X"), key=lambda e: (e["ts"], -e["dur"]))
    start = options.from_us if options.from_us is not None else min(e["ts"] for e in complete)
    if options.from_event:
        start = min(e["ts"] for e in complete if e["name"] == options.from_event)
    end = options.to_us if options.to_us is not None else max(e["ts"] + e["dur"] for e in complete)
    scale = (WIDTH - LABEL_WIDTH - 20) / max(end - start, 1e-3)
    x = lambda t: LABEL_WIDTH + (t - start) * scale

    names, order = tracks_of(events)
    by_track = {tid: [e for e in complete if e["tid"] == tid] for tid in order}
    rows, y = {}, 40
    body = []
    for tid in order:
        track = by_track[tid]
        levels = depths(track)
        height = (max(levels, default=0) + 1) * ROW_HEIGHT
        rows[tid] = y
        body.append(f'<rect x="0" y="{y}" width="{WIDTH}" height="{height}" fill="{"#f4f4f4" if len(rows) % 2 else "#ffffff"}"/>')
        body.append(f'<text x="6" y="{y + 15}" class="track">{html.escape(names[tid])}</text>')
        for event, level in zip(track, levels):
            if event["ts"] + event["dur"] < start or event["ts"] > end:
                continue
            left, right = max(x(event["ts"]), LABEL_WIDTH), min(x(event["ts"] + event["dur"]), WIDTH - 20)
            top = y + level * ROW_HEIGHT + 2
            width = max(right - left, 1.0)
            label = event["name"] + (f' ({event["args"]["bytes"]} B)' if "bytes" in event.get("args", {}) else "")
            body.append(f'<rect x="{left:.1f}" y="{top}" width="{width:.1f}" height="{ROW_HEIGHT - 4}" '
                        f'fill="{COLORS.get(event["cat"], "#999")}"><title>{html.escape(label)}: {event["dur"]:.1f} us</title></rect>')
            if width > 7 * len(label):
                body.append(f'<text x="{left + 3:.1f}" y="{top + 13}" class="event">{html.escape(label)}</text>')
        y += height
    for flow in (e for e in events if e["ph"] == "s"):
        finish = next((f for f in events if f["ph"] == "f" and f["id"] == flow["id"]), None)
        if finish and start <= flow["ts"] <= end:
            body.append(f'<line x1="{x(flow["ts"]):.1f}" y1="{rows[flow["tid"]] + 10}" x2="{x(finish["ts"]):.1f}" '
                        f'y2="{rows[finish["tid"]] + 10}" stroke="#333" stroke-width="1" marker-end="url(#arrow)"/>')
    ticks = []
    for i in range(11):
        t = start + (end - start) * i / 10
        ticks.append(f'<text x="{x(t):.1f}" y="28" class="tick">{(t - start) / 1000:.2f} ms</text>'
                     f'<line x1="{x(t):.1f}" y1="32" x2="{x(t):.1f}" y2="{y}" stroke="#ddd"/>')
    legend = "".join(f'<rect x="{LABEL_WIDTH + 110 * i}" y="{y + 10}" width="12" height="12" fill="{color}"/>'
                     f'<text x="{LABEL_WIDTH + 110 * i + 16}" y="{y + 21}" class="tick">{category}</text>'
                     for i, (category, color) in enumerate(COLORS.items()))
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{y + 40}">'
           '<defs><marker id="arrow" markerWidth="6" markerHeight="6" refX="5" refY="3" orient="auto">'
           '<path d="M0,0 L6,3 L0,6 z" fill="#333"/></marker></defs>'
           '<style>.track{font:12px sans-serif}.event{font:11px sans-serif;fill:#fff}.tick{font:11px sans-serif;fill:#555}</style>'
           + "".join(ticks) + "".join(body) + legend + "</svg>")
    title = f"{html.escape(options.trace)}: {(end - start) / 1000:.2f} ms from {start / 1000:.2f} ms"
    with open(options.output, "w") as out:
        out.write(f"<!doctype html><html><head><meta charset='utf-8'><title>{title}</title></head>"
                  f"<body style='margin:0;background:#fff'><div style='font:13px sans-serif;padding:6px'>{title}</div>{svg}</body></html>\n")


if __name__ == "__main__":
    main()
