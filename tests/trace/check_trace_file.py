#!/usr/bin/env python3
"""Checks a LOOM_TraceFile timeline: a Chrome trace-event JSON file that Perfetto and
chrome://tracing can read, holding the events a test program must have caused.

Usage: check_trace_file.py FILE [--calls a,b,c] [--kernel NAME] [--tiles N] [--copy-bytes N]
                           [--fill] [--wait]

--calls: these API calls, in this order (others may come between), on one thread.
--kernel: a kernel event of that name, of positive duration, on an engine's track; with --tiles,
          on each of the tracks "... tile 0" to "... tile N-1".
--copy-bytes: a copy event whose args say it moved that many bytes.
--fill: a fill event; --wait: a host wait on the application's thread.
--submitted: a submission on the application's thread with an arrow to its command stream on an
             engine's track.
Exits 1 and says what is missing otherwise.
"""
import argparse
import json
import sys


def fail(message):
    print(f"trace check failed: {message}", file=sys.stderr)
    sys.exit(1)


def check_format(events):
    names = {}
    for event in events:
        for key in ("ph", "pid", "tid", "name"):
            if key not in event:
                fail(f"an event without {key!r}: {event}")
        if event["ph"] == "M" and event["name"] == "thread_name":
            names[event["tid"]] = event["args"]["name"]
    complete = [e for e in events if e["ph"] == "X"]
    for event in complete:
        if not (event["ts"] >= 0 and event["dur"] >= 0):
            fail(f"negative time: {event}")
        if event["tid"] not in names:
            fail(f"track {event['tid']} of {event['name']!r} has no thread_name")
    starts = {e["id"] for e in events if e["ph"] == "s"}
    finishes = {e["id"] for e in events if e["ph"] == "f"}
    if finishes - starts:
        fail(f"flow arrows that end without a start: {sorted(finishes - starts)}")
    return complete, names


def check_calls(complete, calls):
    threads = {}
    for event in complete:
        if event["cat"] == "api":
            threads.setdefault(event["tid"], []).append(event)
    for tid, api in threads.items():
        api.sort(key=lambda e: e["ts"])
        remaining = iter(e["name"] for e in api)
        if all(any(name == call for name in remaining) for call in calls):
            return
    fail(f"no thread made the calls {calls} in this order")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("file")
    parser.add_argument("--calls", default="")
    parser.add_argument("--kernel")
    parser.add_argument("--tiles", type=int, default=0)
    parser.add_argument("--copy-bytes", type=int)
    parser.add_argument("--fill", action="store_true")
    parser.add_argument("--wait", action="store_true")
    parser.add_argument("--submitted", action="store_true")
    options = parser.parse_args()

    with open(options.file) as file:
        trace = json.load(file)
    events = trace["traceEvents"]
    complete, names = check_format(events)
    if options.calls:
        check_calls(complete, options.calls.split(","))
    if options.kernel:
        kernels = [e for e in complete if e["cat"] == "kernel" and e["name"] == options.kernel and e["dur"] > 0
                   and names[e["tid"]].startswith("engine ")]
        if not kernels:
            fail(f"no kernel {options.kernel!r} with a duration on an engine's track")
        for tile in range(options.tiles):
            if not any(names[e["tid"]].endswith(f" tile {tile}") for e in kernels):
                fail(f"kernel {options.kernel!r} has no event on tile {tile}")
    if options.copy_bytes is not None:
        if not any(e["cat"] == "copy" and e.get("args", {}).get("bytes") == options.copy_bytes for e in complete):
            fail(f"no copy of {options.copy_bytes} bytes")
    if options.fill and not any(e["cat"] == "fill" and "bytes" in e.get("args", {}) for e in complete):
        fail("no fill")
    if options.wait and not any(e["cat"] == "wait" and not names[e["tid"]].startswith("engine ") for e in complete):
        fail("no host wait on an application thread")
    if options.submitted:
        on_engines = {e["id"] for e in events if e["ph"] == "f" and names[e["tid"]].startswith("engine ")}
        from_threads = {e["id"] for e in events if e["ph"] == "s" and not names[e["tid"]].startswith("engine ")}
        streams = any(e["cat"] == "stream" and names[e["tid"]].startswith("engine ") for e in complete)
        if not (streams and on_engines & from_threads):
            fail("no submission with an arrow to its command stream on an engine's track")
    print(f"{options.file}: {len(complete)} events as expected")


if __name__ == "__main__":
    main()
