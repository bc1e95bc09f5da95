"""Cell constructors shared by the notebook modules (see make_notebooks.py)."""

import html
import re

from nbwrap import wrap

P = "../testdata/profiles/"

# GO_FMT is the prelude of cells that print tables: the imports and the ms
# and pct helpers.
GO_FMT = '''import (
	"fmt"
	"sort"
	"strings"
)

func ms(ns int64) float64 { return float64(ns) / 1e6 }

func pct(a, b int64) float64 { return 100 * float64(a) / float64(b) }
'''


def md(src):
    return {"cell_type": "markdown", "metadata": {}, "source": src}


def go(src, check=None):
    meta = {"nsysx_check": check} if check else {}
    return {"cell_type": "code", "metadata": meta, "source": wrap(src), "outputs": [], "execution_count": None}


def solution(code, lang="go", indent="   "):
    """A collapsed solution under a list item (indented by indent): <details>
    holding the code as HTML <pre>, which nbconvert and the classic Notebook
    both render as a code block with its line breaks (a fenced block inside
    <details> is left as literal ``` text by them). The tests run every <pre>
    inside <details>."""
    # leading tabs as spaces: Markdown expands a tab after the item's indent
    # to the next tab stop, which would eat most of it
    code = "\n".join(re.sub(r"^\t+", lambda m: "    " * len(m.group(0)), l) for l in wrap(code.strip("\n")).split("\n"))
    code = html.escape(code, quote=False)
    lines = ['<details><summary>Solution</summary>', '',
             '<pre><code%s>%s' % (' class="language-%s"' % lang if lang else "", code), '</code></pre>', '', '</details>']
    return "".join((indent + l if l else "") + "\n" for l in "\n".join(lines).split("\n")) + "\n"


def exercises(items, nxt):
    """The closing exercises cell: items are (question, code[, lang]), a
    numbered list whose items hold their collapsed solution."""
    src = "## Exercises\n\n"
    for i, it in enumerate(items, 1):
        src += "%d. %s\n\n" % (i, it[0]) + solution(*it[1:])
    return md(src + nxt)
