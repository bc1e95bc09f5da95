package frame

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"

	"github.com/nsysx/nsysx/internal/suggest"
	"github.com/nsysx/nsysx/nsysx/model"
)

// whereOps are the operators of Where.
var whereOps = []string{"==", "!=", "<", "<=", ">", ">=", "contains", "startswith", "endswith", "matches"}

// Where keeps the rows whose cell in col compares to value with op: one of
// == (or =), !=, <, <=, >, >= (SQLite's ordering of values: NULL before
// numbers, numbers before text), or, on the cell's text, contains,
// startswith, endswith and matches (a Go regular expression). value may be
// any Go integer or float, a string, a Value or nil (NULL). A NULL cell
// matches only == nil and != (anything else).
func (r *Result) Where(col, op string, value any) *Result {
	if f := r.failed(nil); f != nil {
		return f
	}
	c, err := r.Column(col)
	if err == nil {
		var keep func(Value) bool
		if keep, err = matcher(op, value); err == nil {
			var idx []int
			for i := 0; i < r.Len(); i++ {
				if keep(c.Value(i)) {
					idx = append(idx, i)
				}
			}
			return r.take(idx)
		}
	}
	return r.failed(err)
}

// matcher returns the test of one cell.
func matcher(op string, value any) (func(Value) bool, error) {
	want, err := toValue(value)
	if err != nil {
		return nil, err
	}
	switch op {
	case "=", "==", "!=", "<", "<=", ">", ">=":
		return compareOp(op, want), nil
	case "contains", "startswith", "endswith":
		s := want.String()
		f := map[string]func(string, string) bool{"contains": strings.Contains, "startswith": strings.HasPrefix, "endswith": strings.HasSuffix}[op]
		return func(v Value) bool { return !v.IsNull() && f(v.String(), s) }, nil
	case "matches":
		re, err := regexp.Compile(want.String())
		if err != nil {
			return nil, fmt.Errorf("nsysx: Where matches: %w", err)
		}
		return func(v Value) bool { return !v.IsNull() && re.MatchString(v.String()) }, nil
	}
	return nil, fmt.Errorf("nsysx: unknown operator %q%s; known: %s", op, suggest.Suggest(op, whereOps), strings.Join(whereOps, " "))
}

func compareOp(op string, want Value) func(Value) bool {
	return func(v Value) bool {
		if v.IsNull() || want.IsNull() {
			eq := v.IsNull() == want.IsNull()
			return (op == "=" || op == "==") && eq || op == "!=" && !eq
		}
		d := model.Compare(v, want)
		switch op {
		case "=", "==":
			return d == 0
		case "!=":
			return d != 0
		case "<":
			return d < 0
		case "<=":
			return d <= 0
		case ">":
			return d > 0
		}
		return d >= 0
	}
}

// toValue converts a Go value to a cell value.
func toValue(x any) (Value, error) {
	switch v := x.(type) {
	case nil:
		return Null, nil
	case Value:
		return v, nil
	case string:
		return TextV(v), nil
	case int, int8, int16, int32, int64:
		return IntV(reflect.ValueOf(v).Int()), nil
	case uint, uint8, uint16, uint32, uint64:
		return IntV(int64(reflect.ValueOf(v).Uint())), nil // uint64 wraps
	case float32:
		return FloatV(float64(v)), nil
	case float64:
		return FloatV(v), nil
	}
	return Null, fmt.Errorf("nsysx: Where: cannot compare with a %T (use a number, a string or nil)", x)
}

// Int returns cell i as an integer (reals truncated, 0 for NULL or text).
func (c *ResultCol) Int(i int) int64 { return c.Value(i).Int() }

// String returns cell i as nsys prints it (empty for NULL).
func (c *ResultCol) String(i int) string { return c.Value(i).String() }

// Floats returns every cell as a number (NaN for NULL or text).
func (c *ResultCol) Floats() []float64 {
	out := make([]float64, c.Len())
	for i := range out {
		out[i] = c.Float(i)
	}
	return out
}

// Ints returns every cell as an integer (0 for NULL or text).
func (c *ResultCol) Ints() []int64 {
	out := make([]int64, c.Len())
	for i := range out {
		out[i] = c.Int(i)
	}
	return out
}

// Strings returns every cell as nsys prints it.
func (c *ResultCol) Strings() []string {
	out := make([]string, c.Len())
	for i := range out {
		out[i] = c.String(i)
	}
	return out
}
