#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The tree's size rules (docs/architecture.md, "Files and functions"), checked from the C and C++ sources of plugin/,
host/, demo/, python/ and bench/. Prints every breach and exits 1 if there is one.

  - No function definition passes MAX_FUNCTION_LINES lines, from the first line of its signature to its closing brace.
  - A class's members are defined in its header and at most one source file: the out-of-class definitions
    `Class::member(...) { ... }` of one class lie in one .c/.cpp file.

Usage: check_sizes.py SOURCE_DIR, or check_sizes.py --self-test (the checker against sources made to break the rules).

The parser is a brace matcher over the sources with comments, string and character literals blanked: a brace opened
at namespace or class scope after a parenthesized head (a signature, with qualifiers, a trailing return type or a
constructor's initializer list after it) opens a function; other braces (namespaces, classes, initializers, blocks)
are scopes. It follows the tree's format (clang-format, .clang-format), not C++ in general.
"""

import bisect
import pathlib
import re
import sys

MAX_FUNCTION_LINES = 120
FOLDERS = ("plugin", "host", "demo", "python", "bench")
EXTENSIONS = {".h", ".hpp", ".c", ".cpp"}
SOURCE_EXTENSIONS = {".c", ".cpp"}


def blanked(text):
    """`text` with comments and string and character literals replaced by spaces, newlines kept."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            end = text.find(")" + m.group(1) + '"', i) if m else -1
            j = n if end < 0 else end + len(m.group(1)) + 2
            out.append('""' + re.sub(r"[^\n]", " ", text[i + 2 : j]))
            i = j
        elif c in "\"'":
            if c == "'" and i > 0 and text[i - 1].isalnum():  # a digit separator: 1'000
                out.append(" ")
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (min(j, n) - i - 1) + (c if j < n else ""))
            i = j + 1
        elif c == "#" and (i == 0 or text[i - 1] == "\n"):
            # A preprocessor line (with its continuations): no braces of the program.
            j = i
            while True:
                k = text.find("\n", j)
                if k < 0 or text[k - 1] != "\\":
                    break
                j = k + 1
            j = n if k < 0 else k
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def function_name(head):
    """The (possibly qualified) name before the parameter list of a function head, or None for a non-function."""
    if "(" not in head or re.match(r"\s*(template\s*<.*?>\s*)?(namespace|class|struct|union|enum|extern)\b", head, re.S):
        return None
    depth, top_level_equals = 0, False
    for k, ch in enumerate(head.replace("->", "  ")):
        if ch in "([<":
            depth += 1
        elif ch in ")]>":
            depth -= 1
        elif ch == "=" and depth == 0 and not re.search(r"operator\s*[=!<>+\-*/%^&|]*$", head[: k + 1]):
            top_level_equals = True
    if top_level_equals:
        return None
    m = re.match(r"\s*(?:template\s*<.*?>\s*)?(.*?)([A-Za-z_][\w:~]*(?:\s*operator\s*[^\s(]+)?)\s*\(", head, re.S)
    if not m:
        return None
    name = m.group(2)
    if name.split("::")[-1] in ("if", "for", "while", "switch", "catch", "return", "sizeof", "decltype", "alignas"):
        return None
    return name


def scan(text):
    """The function definitions of one file: [(name, first line, last line)]."""
    code = blanked(text)
    line_starts = [0] + [i + 1 for i, ch in enumerate(code) if ch == "\n"]
    line_of = lambda offset: bisect.bisect_right(line_starts, offset)
    functions = []
    stack = []  # per open brace: ("scope",) for a namespace or class, ("function", name, first line), ("block",)
    head_start = 0
    for i, ch in enumerate(code):
        if ch == "{":
            head = code[head_start:i]
            at_scope = all(entry[0] == "scope" for entry in stack)
            name = function_name(head) if at_scope else None
            if name:
                stack.append(("function", name, line_of(head_start + len(head) - len(head.lstrip()))))
            elif at_scope and re.search(r"\b(namespace|class|struct|union|extern)\b", head) and not re.search(
                r"[=)]\s*$", head
            ):
                stack.append(("scope",))
            else:
                stack.append(("block",))
            head_start = i + 1
        elif ch == "}" and stack:
            entry = stack.pop()
            if entry[0] == "function":
                functions.append((entry[1], entry[2], line_of(i)))
            head_start = i + 1
        elif ch == ";" or (ch == ":" and re.search(r"\b(public|private|protected)\s*$", code[head_start:i])):
            head_start = i + 1
    return functions


def breaches_of(files):
    """The breaches of `files`, {relative path: text}."""
    breaches = []
    files_of_class = {}
    namespaces = set()
    for text in files.values():
        namespaces.update(re.findall(r"\bnamespace\s+([\w:]+)", text))
    namespace_parts = {part for name in namespaces for part in name.split("::")} | {"std"}
    for relative, text in files.items():
        for name, first, last in scan(text):
            lines = last - first + 1
            if lines > MAX_FUNCTION_LINES:
                breaches.append(f"{relative}:{first}: {name} is {lines} lines (at most {MAX_FUNCTION_LINES})")
            parts = [p.strip() for p in name.split("::")]
            owner = [p for p in parts[:-1] if p not in namespace_parts]
            if owner and pathlib.PurePosixPath(relative).suffix in SOURCE_EXTENSIONS:
                files_of_class.setdefault("::".join(owner), set()).add(relative)
    for owner, sources in sorted(files_of_class.items()):
        if len(sources) > 1:
            breaches.append(f"class {owner}: members defined in {len(sources)} sources: {', '.join(sorted(sources))}")
    return breaches


def self_test():
    """The checker against sources made to break each rule, and to keep it: 0 when it tells them apart."""
    body = lambda n: "{\n" + "    x();\n" * (n - 3) + "}\n"  # a definition of n lines with its signature
    files = {
        "a/long.cpp": "namespace fftb\n{\nint tooLong(int a)\n" + body(121) + "int longest(int a)\n" + body(120)
        + "} // namespace fftb\n",
        "a/split_one.cpp": "void Split::first() const\n{\n}\nvoid Whole::only()\n{\n    auto f = [&](int x)\n    {\n"
        + "        return x;\n    };\n}\n",
        "a/split_two.cpp": "namespace fftb\n{\nvoid fftb::freeFunction()\n{\n}\nvoid Split::second()\n{\n    const char* s"
        + " = \"}{\";\n}\nconst int table[] = {1, 2};\n} // namespace fftb\n",
        "a/header.h": "class Whole\n{\n  public:\n    Whole() : v_(0) {}\n    void inlined()\n    {\n    }\n};\n"
        + "void Split::inHeader()\n{\n}\n",
    }
    expected = [
        "a/long.cpp:3: tooLong is 121 lines (at most 120)",
        "class Split: members defined in 2 sources: a/split_one.cpp, a/split_two.cpp",
    ]
    got = breaches_of(files)
    if got != expected:
        print("check_sizes.py --self-test: expected", expected, "got", got)
        return 1
    print("check_sizes.py --self-test: both rules caught, nothing else")
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    root = pathlib.Path(sys.argv[1])
    files = {}
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix in EXTENSIONS and path.is_file():
                files[path.relative_to(root).as_posix()] = path.read_text(errors="replace")
    breaches = breaches_of(files)
    if breaches:
        print("the tree breaks its size rules:")
        for b in breaches:
            print("  " + b)
        return 1
    print(f"sizes: every function within {MAX_FUNCTION_LINES} lines, every class in its header and one source")
    return 0


if __name__ == "__main__":
    sys.exit(main())
