// Package shortname shortens demangled C++ function names for display:
// chart labels (plots) and console summaries (compare) use the same short
// names, while tables keep the full ones.
package shortname

import (
	"strconv"
	"strings"
)

// MaxLabel is the longest label, in runes.
const MaxLabel = 60

// Short shortens a demangled C++ function name for a label: the
// return type, template arguments and parameter list are dropped
// ("void at::native::vectorized_elementwise_kernel<4, ...>(int, T2, T3)"
// gives "at::native::vectorized_elementwise_kernel"), anonymous namespaces
// are dropped, and a name still longer than a label keeps its last scopes.
// Names that are not C++ (cuBLAS's sm80_xmma_gemm_..., NVTX ranges) only
// get truncated.
func Short(s string) string {
	s = cleanName(s)
	base, _ := splitTemplate(s)
	if base == "" {
		base = s
	}
	return fitScopes(base, MaxLabel)
}

// cleanName trims s and drops anonymous namespaces.
func cleanName(s string) string {
	s = strings.TrimSpace(s)
	s = strings.ReplaceAll(s, "(anonymous namespace)::", "")
	return strings.ReplaceAll(s, "<unnamed>::", "")
}

// splitTemplate returns the function's qualified name without template
// arguments, return type and parameters, and the text of its template
// arguments (all levels).
func splitTemplate(s string) (name, targs string) {
	// Drop the parameter list: the last top-level (...) that ends the name.
	if i := paramStart(s); i > 0 {
		s = s[:i]
	}
	var b, t strings.Builder
	depth := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '<' && !strings.HasSuffix(b.String(), "operator"):
			depth++
			if depth > 1 {
				t.WriteByte(c)
			}
			continue
		case c == '>' && depth > 0:
			depth--
			if depth == 0 {
				t.WriteByte(' ')
			} else {
				t.WriteByte(c)
			}
			continue
		}
		if depth > 0 {
			t.WriteByte(c)
		} else {
			b.WriteByte(c)
		}
	}
	name = strings.TrimSpace(b.String())
	// Drop a return type: the last top-level space outside parentheses.
	if i := lastTopSpace(name); i >= 0 {
		name = name[i+1:]
	}
	return name, t.String()
}

// paramStart finds the '(' opening the parameter list that closes s, or -1.
func paramStart(s string) int {
	if !strings.HasSuffix(s, ")") {
		// "... (T1::Params) const" or a plain C name
		if i := strings.LastIndex(s, ") const"); i >= 0 && i+len(") const") == len(s) {
			s = s[:i+1]
		} else {
			return -1
		}
	}
	depth := 0
	for i := len(s) - 1; i >= 0; i-- {
		switch s[i] {
		case ')', '>', ']':
			depth++
		case '(', '<', '[':
			depth--
			if depth == 0 && s[i] == '(' {
				if i > 0 && !strings.HasSuffix(s[:i], "operator") {
					return i
				}
				return -1
			}
		}
	}
	return -1
}

// lastTopSpace is the index of the last space outside (), or -1.
func lastTopSpace(s string) int {
	depth := 0
	for i := len(s) - 1; i >= 0; i-- {
		switch s[i] {
		case ')', ']':
			depth++
		case '(', '[':
			depth--
		case ' ':
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// fitScopes drops leading scopes ("a::b::c" -> "b::c") until s fits in n
// runes, then truncates.
func fitScopes(s string, n int) string {
	for len([]rune(s)) > n {
		i := strings.Index(s, "::")
		if i < 0 || i+2 >= len(s) || !strings.Contains(s[i+2:], "::") && len([]rune(s[i+2:])) < 8 {
			break
		}
		s = s[i+2:]
	}
	return Truncate(s, n)
}

// Labels makes display labels for full names: Short, and where
// two names shorten alike, a distinguishing identifier from their template
// arguments ("cutlass::Kernel2<cutlass_80_simt_sgemm_256x128_8x4_nn_align1>"),
// else a number ("name #2").
func Labels(full []string) []string {
	out := make([]string, len(full))
	groups := map[string][]int{}
	var order []string
	for i, f := range full {
		out[i] = Short(f)
		if _, ok := groups[out[i]]; !ok {
			order = append(order, out[i])
		}
		groups[out[i]] = append(groups[out[i]], i)
	}
	for _, short := range order {
		if idx := groups[short]; len(idx) > 1 {
			disambiguate(full, out, idx, short)
		}
	}
	return out
}

// disambiguate labels the names full[idx] that all shorten to short: each
// gets up to three identifiers of its template arguments that tell it from
// the others, picked greedily (rarest first, builtin types last), else the
// region of its base name that differs, else a number.
func disambiguate(full, out []string, idx []int, short string) {
	toks, members := templateIdents(full, idx)
	used := map[string]bool{}
	for k, i := range idx {
		picks, unique := tellingIdents(toks[k], members, len(idx))
		lab := short
		switch {
		case len(picks) > 0 && unique:
			lab = withArgs(short, picks)
		default:
			if d := diffAt(full, idx, i); d >= 0 {
				base, _ := splitTemplate(cleanName(full[i]))
				lab = truncateAround(base, d, MaxLabel)
			}
		}
		if used[lab] || lab == short {
			lab = Truncate(short, MaxLabel-4) + " #" + strconv.Itoa(k+1)
		}
		used[lab] = true
		out[i] = lab
	}
}

// templateIdents lists the distinct identifiers in each name's template
// arguments (toks[k] for full[idx[k]], in order of appearance) and, per
// identifier, the set of k whose name has it.
func templateIdents(full []string, idx []int) (toks [][]string, members map[string]map[int]bool) {
	toks = make([][]string, len(idx))
	members = map[string]map[int]bool{}
	for k, i := range idx {
		_, targs := splitTemplate(cleanName(full[i]))
		for _, t := range identifiers(targs) {
			if members[t] == nil {
				members[t] = map[int]bool{}
			}
			if !members[t][k] {
				members[t][k] = true
				toks[k] = append(toks[k], t)
			}
		}
	}
	return toks, members
}

// tellingIdents picks up to three of one name's identifiers (toks) that
// tell it apart from the other n-1 names, rarest first; unique says whether
// they single it out.
func tellingIdents(toks []string, members map[string]map[int]bool, n int) (picks []string, unique bool) {
	same := map[int]bool{}
	for j := range n {
		same[j] = true
	}
	for len(same) > 1 && len(picks) < 3 {
		best := rarestIdent(toks, members, same)
		if best == "" {
			break
		}
		picks = append(picks, best)
		for j := range same {
			if !members[best][j] {
				delete(same, j)
			}
		}
	}
	return picks, len(same) == 1
}

// rarestIdent is the identifier of toks shared by the fewest names in same,
// among those that tell some apart, preferring names to builtin types and
// numbers; "" when none does.
func rarestIdent(toks []string, members map[string]map[int]bool, same map[int]bool) string {
	best, bestN := "", len(same)
	for _, commonOK := range []bool{false, true} {
		for _, t := range toks {
			if common := skipIdent[t] || strings.Trim(t, "0123456789") == ""; common != commonOK {
				continue
			}
			n := 0
			for j := range same {
				if members[t][j] {
					n++
				}
			}
			if n < bestN {
				best, bestN = t, n
			}
		}
		if best != "" {
			break
		}
	}
	return best
}

// withArgs appends "<args>" to a short name within MaxLabel runes: the
// name loses its leading scopes first, then each argument is truncated.
func withArgs(short string, args []string) string {
	lab := short + "<" + strings.Join(args, ",") + ">"
	if len([]rune(lab)) <= MaxLabel {
		return lab
	}
	if i := strings.LastIndex(short, "::"); i >= 0 {
		short = short[i+2:]
	}
	room := MaxLabel - len([]rune(short)) - 2 - (len(args) - 1)
	each := max(room/len(args), 6)
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = Truncate(a, each)
	}
	return Truncate(short+"<"+strings.Join(parts, ",")+">", MaxLabel)
}

// diffAt returns the first rune position where the base name of full[i]
// differs from another member of its group, or -1 when none differs.
func diffAt(full []string, idx []int, i int) int {
	a, _ := splitTemplate(cleanName(full[i]))
	ra := []rune(a)
	best := -1
	for _, j := range idx {
		if j == i {
			continue
		}
		b, _ := splitTemplate(cleanName(full[j]))
		rb := []rune(b)
		k := 0
		for k < len(ra) && k < len(rb) && ra[k] == rb[k] {
			k++
		}
		if k < len(ra) && k > best {
			best = k
		}
	}
	return best
}

// truncateAround shortens s to n runes keeping its start and the text
// around rune position pos: "sm80_xmma_gemm_…tilesize128x32x8_stage3…".
func truncateAround(s string, pos, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	const head = 16
	if pos < head+8 {
		return Truncate(s, n)
	}
	from := pos - 10
	to := min(len(r), from+n-head-2)
	if to == len(r) {
		from = max(head, to-(n-head-1))
		return string(r[:head]) + "…" + string(r[from:])
	}
	return string(r[:head]) + "…" + string(r[from:to]) + "…"
}

// identifiers lists the identifiers of template-argument text, without
// keywords, builtin types and template parameter names (T1, T2).
func identifiers(s string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(s, func(r rune) bool {
		return !(r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) {
		digits := strings.Trim(f, "0123456789") == ""
		if !digits && len(f) < 3 || noiseIdent[f] {
			continue
		}
		if len(f) <= 3 && f[0] == 'T' {
			continue
		}
		out = append(out, f)
	}
	return out
}

// noiseIdent never tells two kernels apart usefully.
var noiseIdent = map[string]bool{
	"const": true, "true": true, "false": true, "auto": true, "at": true, "native": true, "detail": true,
	"std": true, "instance": true, "lambda": true, "anonymous": true, "namespace": true, "unnamed": true,
}

// skipIdent are identifiers picked only when nothing else tells kernels apart.
var skipIdent = map[string]bool{
	"void": true, "int": true, "char": true, "float": true, "double": true, "long": true, "short": true,
	"unsigned": true, "signed": true, "bool": true, "const": true, "true": true, "false": true, "auto": true,
	"at": true, "native": true, "detail": true, "std": true, "cuda": true, "c10": true, "Half": true,
	"BFloat16": true, "instance": true, "lambda": true, "anonymous": true, "namespace": true, "Array": true,
	"int64_t": true, "uint32_t": true, "uint64_t": true, "int32_t": true, "__nv_bfloat16": true, "__half": true,
}

// Truncate shortens s to at most n runes, with an ellipsis in the middle.
func Truncate(s string, n int) string {
	r := []rune(s)
	switch {
	case len(r) <= n:
		return s
	case n <= 0:
		return ""
	case n < 5:
		return string(r[:n-1]) + "…"
	}
	head := (n - 1) * 2 / 3
	tail := n - 1 - head
	return string(r[:head]) + "…" + strings.TrimLeft(string(r[len(r)-tail:]), " ")
}

// Distinct truncates each of full to n runes; names that truncate alike
// keep the text where they differ ("sm80_xmma_gemm_…tilesize128x32x8_stage3…").
func Distinct(full []string, n int) []string {
	out := make([]string, len(full))
	groups := map[string][]int{}
	for i, f := range full {
		out[i] = Truncate(f, n)
		groups[out[i]] = append(groups[out[i]], i)
	}
	for _, idx := range groups {
		if len(idx) < 2 {
			continue
		}
		for _, i := range idx {
			if pos := diffAt(full, idx, i); pos >= 0 {
				out[i] = truncateAround(full[i], pos, n)
			}
		}
	}
	return out
}
