#!/usr/bin/env python3
"""The guarantees index: every promise the documentation makes has an ID, and every ID a test that asserts it.

A promise carries its ID in an HTML comment, which neither GitHub nor DocC shows: `<!-- G-timer-cancel-inside -->`
(several IDs in one comment are allowed). Promises live in README.md, the DocC articles (Sources/<Module>/<Module>.docc)
and the doc comments of public symbols. A test names the IDs it asserts in a comment line of its own, above it or in
its body: `// Guarantees: G-timer-cancel-inside, G-timer-release-on-cancel`. A cost promise held by a CI gate
(Benchmarks/ci-check.sh's allocation thresholds, Benchmarks/InstructionCounts/check.sh's rows) is tagged there, with
`# Guarantees: …` above the rows that hold it.

Fails when:
- an ID in the documentation has no test and is not in .ci/guarantees-untested.txt (which gives the reason per ID);
- a test, or the untested list, names an ID the documentation does not make, or the untested list names a tested ID;
- a row of README's Guarantees table, or a `- Guarantee:`, `- Ordering:`, `- Release:`, `- Thread-safety:` or
  `- Cost:` bullet of a public symbol's doc comment, carries no ID (so a new promise cannot be added without one; a
  cost is a promise too, held by a test or by a CI gate's row).

Usage: .ci/check-guarantees.py SYMBOLGRAPH_DIR [--list]
SYMBOLGRAPH_DIR: where `swift package dump-symbol-graph --minimum-access-level public` wrote its graphs (they say which
doc comments are public). --list prints the index: each ID, where it is promised, and the tests that assert it.
"""
import json
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
MODULES = ["ExecMutex", "ExecDispatch", "ExecKit", "ExecNotifications", "ExecTesting"]
ID = r"G-[a-z0-9]+(?:-[a-z0-9]+)*"
MARKER = re.compile(r"<!--((?:\s*" + ID + r")+)\s*-->")
TEST_LINE = re.compile(r"^\s*(?://|#)\s*Guarantees?:\s*(.*)$")
# The CI gates outside Tests/ that hold promises (allocation thresholds, instruction counts, the CwlUtils names'
# compile errors): `# Guarantees: …`.
GATES = ["Benchmarks/ci-check.sh", "Benchmarks/InstructionCounts/check.sh", ".ci/check-cwlutils-names.sh"]
BULLET = re.compile(r"^\s*- (Guarantee|Ordering|Release|Thread-safety|Cost):")
UNTESTED = ROOT / ".ci" / "guarantees-untested.txt"


def malformed_markers(text):
    """HTML comments that mention a G- ID but are not a well-formed marker (commas, upper case, split lines)."""
    return [comment for comment in re.findall(r"<!--(.*?)(?:-->|$)", text)
            if "G-" in comment and not re.fullmatch(r"(?:\s*" + ID + r")+\s*", comment)]


def ids_in(text):
    return [found for marker in MARKER.findall(text) for found in re.findall(ID, marker)]


def documentation():
    """Reads README, the articles and the Swift sources once: ({id: [(module, "file:line")]} of the promises, and the
    malformed markers). A promise counts in a Swift file only on a `///` line; a malformed marker counts anywhere."""
    found, malformed = {}, []
    files = [("README", ROOT / "README.md")] + [
        (module, path) for module in MODULES for path in sorted((ROOT / "Sources" / module).rglob("*"))
        if path.suffix in (".md", ".swift")]
    for module, path in files:
        where = path.relative_to(ROOT)
        for number, line in enumerate(path.read_text().splitlines(), 1):
            for comment in malformed_markers(line):
                malformed.append(f"{where}:{number}: a malformed marker <!--{comment}-->")
            if path.suffix == ".swift" and not line.lstrip().startswith("///"):
                continue
            for identifier in ids_in(line):
                found.setdefault(identifier, []).append((module, f"{where}:{number}"))
    return found, malformed


def tests():
    """{id: ["file:line"]} from the `// Guarantees:` lines under Tests/, and `# Guarantees:` lines of the CI gates."""
    found = {}
    test_files = sorted((ROOT / "Tests").rglob("*.swift")) + sorted((ROOT / "Examples").glob("*Tests/**/*.swift"))
    for path in test_files + [ROOT / gate for gate in GATES]:
        for number, line in enumerate(path.read_text().splitlines(), 1):
            match = TEST_LINE.match(line)
            if match:
                for identifier in re.findall(ID, match.group(1)):
                    found.setdefault(identifier, []).append(f"{path.relative_to(ROOT)}:{number}")
    return found


def untested():
    """{id: reason} from .ci/guarantees-untested.txt (`G-id  reason`, `#` comments)."""
    found = {}
    if UNTESTED.exists():
        for line in UNTESTED.read_text().splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                identifier, _, reason = line.partition(" ")
                found[identifier] = reason.strip()
    return found


def unmarked_readme_rows():
    """README's Guarantees table rows that carry no ID."""
    lines = (ROOT / "README.md").read_text().splitlines()
    problems = []
    inside = in_table = False
    for number, line in enumerate(lines, 1):
        if line.startswith("## "):
            inside, in_table = line.startswith("## Guarantees"), False
            continue
        # The table runs from its first row to the first blank line; a line without `|` inside it is a broken row.
        if inside and line.startswith("|"):
            in_table = True
        elif in_table and not line.strip():
            in_table = False
        elif in_table:
            problems.append(f"README.md:{number}: a Guarantees row broken over two lines (GitHub splits it)")
        if inside and line.startswith("| **") and not ids_in(line):
            problems.append(f"README.md:{number}: a Guarantees row with no ID")
    return problems


def unmarked_bullets(symbol_graphs):
    """`- Guarantee:`-style bullets of public doc comments that carry no ID."""
    problems = set()
    for module in MODULES:
        if not list(symbol_graphs.glob(f"{module}*.symbols.json")):
            problems.add(f"no symbol graph for {module} in {symbol_graphs}: run swift package dump-symbol-graph first")
        for path in sorted(symbol_graphs.glob(f"{module}*.symbols.json")):
            for symbol in json.loads(path.read_text())["symbols"]:
                location = symbol.get("location")
                if symbol.get("accessLevel") not in ("public", "open") or not location:
                    continue
                if "/Sources/" not in location["uri"]:
                    continue
                lines = symbol.get("docComment", {}).get("lines", [])
                texts = [line["text"] for line in lines]
                for index, text in enumerate(texts):
                    if not BULLET.match(text):
                        continue
                    bullet = [text]
                    for following in texts[index + 1:]:
                        if not following.strip() or following.lstrip().startswith("- "):
                            break
                        bullet.append(following)
                    if not ids_in(" ".join(bullet)):
                        where = location["uri"].split("/Sources/")[1]
                        start = lines[index].get("range", {}).get("start", {}).get("line")
                        line = start + 1 if start is not None else location["position"]["line"] + 1
                        problems.add(f"Sources/{where}:{line}: '{text.strip()[:60]}…' carries no ID")
    return sorted(problems)


def main(argv):
    if not argv or argv[0].startswith("-"):
        sys.exit(__doc__)
    (promised, malformed), asserted, waived = documentation(), tests(), untested()
    problems = unmarked_readme_rows() + unmarked_bullets(pathlib.Path(argv[0])) + malformed
    for identifier in sorted(promised):
        if identifier not in asserted and identifier not in waived:
            sites = ", ".join(where for _, where in promised[identifier])
            problems.append(f"{identifier} (promised at {sites}) has no test and is not in {UNTESTED.name}")
        if identifier in asserted and identifier in waived:
            problems.append(f"{identifier} has a test: remove it from {UNTESTED.name}")
    for identifier, sites in sorted(asserted.items()):
        if identifier not in promised:
            problems.append(f"{sites[0]}: names {identifier}, which no documentation promises")
    for identifier in sorted(waived):
        if identifier not in promised:
            problems.append(f"{UNTESTED.name} names {identifier}, which no documentation promises")

    if "--list" in argv:
        for identifier in sorted(promised):
            print(identifier)
            for _, where in promised[identifier]:
                print(f"    promised  {where}")
            for where in asserted.get(identifier, []):
                print(f"    tested    {where}")
            if identifier in waived:
                print(f"    UNTESTED  {waived[identifier]}")
    for problem in problems:
        print(f"error: {problem}", file=sys.stderr)

    by_module = {}
    for identifier, sites in promised.items():
        for module in sorted(set(module for module, _ in sites)):
            counts = by_module.setdefault(module, [0, 0])
            counts[0] += 1
            counts[1] += identifier in asserted
    summary = ", ".join(f"{module} {tested}/{total}" for module, (total, tested) in sorted(by_module.items()))
    print(f"guarantees: {len(promised)} IDs, {sum(1 for i in promised if i in asserted)} tested, "
          f"{sum(1 for i in promised if i in waived)} listed untested; tested/promised per place: {summary}")
    if problems:
        sys.exit(1)


if __name__ == "__main__":
    main(sys.argv[1:])
