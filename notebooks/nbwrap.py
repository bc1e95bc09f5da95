"""Wraps long Go lines of notebook cells so that they fit the Notebook page."""

LIMIT = 100


def width(s):
    return len(s.expandtabs(4))


def _breaks(line):
    """Candidate break points: (index, kind) after ', ' outside strings at depth >= 1, or after a space in a string."""
    out, depth, in_str, i = [], 0, False, 0
    while i < len(line):
        ch = line[i]
        if in_str:
            if ch == "\\":
                i += 2
                continue
            if ch == '"':
                in_str = False
            elif ch == " " and line[i + 1:i + 2] not in ('"', ""):
                out.append((i + 1, "str"))
        elif ch == '"':
            in_str = True
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and line[i + 1:i + 2] == " " and depth >= 1:
            out.append((i + 2, "comma"))
        i += 1
    return out


def wrap_line(line, cont=None):
    if width(line) <= LIMIT or line.lstrip().startswith(("%", "//")):
        return [line]
    indent = line[:len(line) - len(line.lstrip("\t"))]
    cont = cont if cont is not None else indent + "\t"
    fits = [(i, k) for i, k in _breaks(line) if width(line[:i]) <= LIMIT and width(line[:i].lstrip()) > 20]
    if not fits:
        return [line]
    commas = [f for f in fits if f[1] == "comma" and width(line[:f[0]]) > LIMIT // 2]
    i, kind = (commas or fits)[-1]
    if kind == "comma":
        first, rest = line[:i].rstrip(), cont + line[i:].lstrip()
    else:
        first, rest = line[:i] + '" +', cont + '"' + line[i:]
    return [first] + wrap_line(rest, cont)


def wrap(src):
    if src.startswith("%%sql"):
        return src
    out = []
    for line in src.split("\n"):
        out.extend(wrap_line(line))
    return "\n".join(out)
