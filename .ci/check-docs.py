#!/usr/bin/env python3
"""Fails when a public symbol of a library module has no doc comment.

Reads the symbol graphs that `swift package dump-symbol-graph` writes and lists every public or open symbol
declared in this package (not inherited from a protocol's default docs elsewhere) without documentation.
Usage: .ci/check-docs.py SYMBOLGRAPH_DIR MODULE [MODULE ...]
"""
import json
import pathlib
import sys

directory = pathlib.Path(sys.argv[1])
modules = sys.argv[2:]
missing = []
for module in modules:
    for path in sorted(directory.glob(f"{module}*.symbols.json")):
        graph = json.loads(path.read_text())
        for symbol in graph["symbols"]:
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            if symbol.get("location") is None:  # synthesized or declared outside this package
                continue
            if "/Sources/" not in symbol["location"]["uri"]:
                continue
            if not symbol.get("docComment", {}).get("lines"):
                where = symbol["location"]["uri"].split("/Sources/")[1]
                line = symbol["location"]["position"]["line"] + 1
                missing.append(f"{where}:{line}: {'.'.join(symbol['pathComponents'])}")
for entry in sorted(set(missing)):
    print(f"undocumented public symbol: {entry}")
if missing:
    sys.exit(1)
print(f"every public symbol of {', '.join(modules)} has a doc comment")
