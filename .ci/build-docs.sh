#!/usr/bin/env bash
# Builds the DocC documentation of every public module with the toolchain's own `docc` (no plugin dependency), and
# fails on any DocC warning, an unresolved symbol or article link included.
#
# Usage: .ci/build-docs.sh [scratch-dir]   (default .build-docs; writes <scratch-dir>/docs/<Module>.doccarchive, and
# <scratch-dir>/docs/ExecKit-all.doccarchive: the five merged under one landing page, a static site that any file
# server can serve, as README's "Read the documentation" line does with python3's http.server)
#
# How long it takes (measured 2026-11-23, 2 shared cores under load from other builds, Swift 6.3.1): 64 s from an
# empty scratch directory, nearly all of it the debug build; 12 s when the build is up to date (the symbol-graph
# dump and the five `docc convert` runs). .ci/run passes its own .build, already built, so it pays the 12 s.
#
# Steps: one `swift package dump-symbol-graph` (which builds the package), then one `docc convert` per module. Each
# archive stands alone: a symbol link (double backticks) resolves only within its own module, so pages name another
# module's symbols in single backticks (`Exec`, `DispatchQueue.isMainQueueCurrent`).
set -euo pipefail
cd "$(dirname "$0")/.."

scratch="${1:-.build-docs}"
modules=(ExecMutex ExecDispatch ExecKit ExecNotifications ExecTesting)

# The toolchain's docc sits next to its swift; fall back to PATH.
swift_bin="$(command -v swift)"
docc="$(dirname "$(readlink -f "$swift_bin")")/docc"
[ -x "$docc" ] || docc="$(command -v docc || true)"
if [ -z "$docc" ] || [ ! -x "$docc" ]; then
    echo "error: no docc next to $swift_bin or on PATH; it ships with Swift 5.9 and later toolchains." >&2
    exit 1
fi

graphs="$scratch/symbolgraphs"
out="$scratch/docs"
rm -rf "$graphs" "$out"
mkdir -p "$graphs" "$out"

echo "== build, and dump each module's public symbol graph"
# dump-symbol-graph, unlike -emit-symbol-graph on the compiler, leaves out what a module re-exports (ExecKit's
# `@_exported import`s would otherwise put all of Dispatch, ExecMutex and ExecDispatch on ExecKit's pages).
dumped="$(swift build --scratch-path "$scratch" --show-bin-path)/../symbolgraph"
rm -rf "$dumped"
# Without test products built, it also tries, and fails, to dump SwiftPM's generated test modules
# (ExecKitPackageTests, ExecKitPackageDiscoveredTests); only the library modules' graphs matter, checked below.
# Those two expected failures are filtered out of the output, so that a successful run does not print "error:".
set +o pipefail
swift package --scratch-path "$scratch" dump-symbol-graph --minimum-access-level public --emit-extension-block-symbols \
    2>&1 | grep -v "Failed to emit symbol graph for 'ExecKitPackage\(Discovered\)\?Tests'"
set -o pipefail
for module in "${modules[@]}"; do
    if [ ! -s "$dumped/$module.symbols.json" ]; then
        echo "error: no symbol graph for $module in $dumped; see the build output above." >&2
        exit 1
    fi
done

status=0
for module in "${modules[@]}"; do
    echo "== docc convert $module"
    # Only this module's graphs: its own and its extensions of other modules' types (Module@Other.symbols.json).
    mkdir -p "$graphs/$module"
    cp "$dumped/$module.symbols.json" "$graphs/$module/"
    find "$dumped" -name "$module@*.symbols.json" -exec cp {} "$graphs/$module/" \;

    log="$out/$module.log"
    if ! "$docc" convert "Sources/$module/$module.docc" \
        --additional-symbol-graph-dir "$graphs/$module" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.execkit.$module" \
        --output-path "$out/$module.doccarchive" \
        --warnings-as-errors >"$log" 2>&1; then
        status=1
    fi
    cat "$log"
    # Belt and braces: a warning that did not fail the run still fails the script.
    if grep -q "warning:" "$log"; then
        echo "error: docc reported warnings for $module (see above)." >&2
        status=1
    fi
done

if [ "$status" -ne 0 ]; then
    echo "error: the documentation has problems; fix Sources/<Module>/<Module>.docc or the doc comments." >&2
    exit 1
fi
echo "== docc merge"
archives=()
for module in "${modules[@]}"; do archives+=("$out/$module.doccarchive"); done
"$docc" merge "${archives[@]}" --synthesized-landing-page-name ExecKit --output-path "$out/ExecKit-all.doccarchive"
echo "Documentation archives: $out/<Module>.doccarchive, and all five in $out/ExecKit-all.doccarchive"
