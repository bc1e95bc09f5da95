"""Cell constructors shared by the notebook modules (see make_notebooks.py)."""

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


def solution(code, lang="go"):
    """A collapsed solution: the test runs every fenced block inside <details>."""
    return "<details><summary>Solution</summary>\n\n```%s\n%s\n```\n</details>\n\n" % (lang, wrap(code.strip("\n")))


def exercises(items, nxt):
    """The closing exercises cell: items are (question, code[, lang])."""
    src = "## Exercises\n\n"
    for i, it in enumerate(items, 1):
        src += "%d. %s\n\n" % (i, it[0]) + solution(*it[1:])
    return md(src + nxt)
