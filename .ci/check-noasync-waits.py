#!/usr/bin/env python3
"""Apple's Dispatch marks DispatchSemaphore.wait and DispatchGroup.wait unavailable from async contexts (an error in
Swift 6 mode on macOS), Linux's does not, so a test that calls them from an async function or closure builds here and
fails on a Mac. This finds such calls in Tests/ by tracking, brace by brace, whether the code runs in an async function
or closure: `func ... async`, `processExitsWith` bodies, `Task { }` and task-group bodies are async; other closures are
taken as synchronous (a heuristic: a closure passed to an async-taking API elsewhere would be missed). Waits belong in a
synchronous helper, such as ExecTestSupport's `waitBlocking(_:seconds:)`.
"""
import pathlib
import re
import sys

ASYNC_OPENERS = re.compile(
    r"(\bfunc\b[^{]*\basync\b|processExitsWith|\bTask(\.detached)?\s*(\([^)]*\))?\s*\{|withTaskGroup|withThrowingTaskGroup"
    r"|addTask\s*(\([^)]*\))?\s*\{|\basync\s*(throws)?\s*(->[^{]*)?\s*in\b)")
CONTROL = re.compile(r"^\s*(\}\s*)?(if|else|for|while|do|guard|switch|case|default|defer|catch|repeat)\b")
FUNC = re.compile(r"\b(func|init|var|get|set)\b")
WAIT = re.compile(r"\b(\w+)\.wait\((timeout:|wallTimeout:|\))")
DECLARED = re.compile(r"\b(?:let|var)\s+(\w+)\s*=\s*Dispatch(?:Semaphore|Group)\(")

def scan(path):
    problems = []
    stack = []  # async-ness of each open brace
    text = path.read_text()
    dispatch_waiters = set(DECLARED.findall(text))  # names bound to a DispatchSemaphore or DispatchGroup here
    for number, line in enumerate(text.splitlines(), 1):
        code = line.split("//")[0]
        wait = WAIT.search(code)
        if wait and wait.group(1) in dispatch_waiters and stack and stack[-1]:
            problems.append(f"{path}:{number}: {wait.group(1)}.wait inside an async function or closure")
        for position, char in enumerate(code):
            if char == "{":
                before = code[:position]
                if ASYNC_OPENERS.search(before):
                    stack.append(True)
                elif CONTROL.search(before) or re.search(r"\b(if|guard|for|while)\b", before):
                    stack.append(stack[-1] if stack else False)
                elif FUNC.search(before):
                    stack.append(False)
                else:
                    stack.append(False)  # a closure: synchronous unless marked
            elif char == "}":
                if stack:
                    stack.pop()
    return problems

problems = [p for file in sorted(pathlib.Path("Tests").rglob("*.swift")) for p in scan(file)]
for problem in problems:
    print(problem)
sys.exit(1 if problems else 0)
