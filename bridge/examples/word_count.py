#!/usr/bin/env python3
"""Example NDJSON worker in Python (seed 000 §2): the `word_count` tool and a `before_turn` hook.

One JSON request per line on stdin, one answer per line on stdout, flushed after every frame. Logs go to
stderr. The bridge sets PYTHONUTF8=1, so stdin/stdout are UTF-8 everywhere.

Exits when stdin closes. Every worker must: if the bridge itself is SIGKILLed, stdin EOF is the only signal a
worker gets (a later bridge start kills leftover process groups too, but only as a best-effort guard).
"""
import json
import sys


def handle(req):
    event = req.get("event")
    data = req.get("data") or {}
    if event == "tool":
        if data.get("name") != "word_count":
            raise ValueError("unknown tool %r" % data.get("name"))
        text = data.get("arguments", {}).get("text", "")
        return {"output": str(len(text.split()))}
    if event == "before_turn":
        # Hooks return the complete data, not a patch.
        out = dict(data)
        out["word_count_seen"] = True
        return out
    return data


def main():
    for line in sys.stdin:
        try:
            req = json.loads(line)
        except ValueError:
            print("skipping a line that is not JSON", file=sys.stderr)
            continue
        try:
            frame = {"id": req["id"], "data": handle(req)}
        except Exception as error:  # an expected failure becomes an error frame
            frame = {"id": req.get("id"), "error": str(error)}
        sys.stdout.write(json.dumps(frame) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
