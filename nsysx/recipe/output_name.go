package recipe

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// DefaultOutput is <base>-N in dir ("" = the current directory) with the
// smallest N ≥ 1 for which nothing exists yet.
func DefaultOutput(dir, base string) string {
	for n := 1; ; n++ {
		p := filepath.Join(dir, base+"-"+strconv.Itoa(n))
		if _, err := os.Lstat(p); errors.Is(err, fs.ErrNotExist) {
			return p
		}
	}
}

// ExpandOutput applies --output's substitutions: %q{VAR} the value of
// environment variable VAR (an unset one is an error), %h the host name,
// %p the process id, %n the smallest positive integer for which the
// resulting path does not exist yet, %% a percent sign. Any other %
// sequence is an error.
func ExpandOutput(name string) (string, error) { return expandIn("", name) }

// expandIn is ExpandOutput with a relative name's %n resolved in dir.
func expandIn(dir, name string) (string, error) {
	if !strings.Contains(name, "%n") {
		return expandOnce(name, "")
	}
	for n := 1; ; n++ {
		p, err := expandOnce(name, strconv.Itoa(n))
		if err != nil {
			return "", err
		}
		at := p
		if dir != "" && !filepath.IsAbs(p) {
			at = filepath.Join(dir, p)
		}
		if _, err := os.Lstat(at); errors.Is(err, fs.ErrNotExist) {
			return p, nil
		}
	}
}

func expandOnce(name, n string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		if name[i] != '%' {
			b.WriteByte(name[i])
			continue
		}
		if i+1 >= len(name) {
			return "", Usagef("--output %q: a lone %% at the end (write %%%% for a percent sign)", name)
		}
		i++
		switch name[i] {
		case '%':
			b.WriteByte('%')
		case 'n':
			b.WriteString(n)
		case 'p':
			b.WriteString(strconv.Itoa(os.Getpid()))
		case 'h':
			h, err := os.Hostname()
			if err != nil {
				return "", fmt.Errorf("--output %%h: %w", err)
			}
			b.WriteString(h)
		case 'q':
			v, rest, err := envSubst(name, name[i+1:])
			if err != nil {
				return "", err
			}
			b.WriteString(v)
			i = len(name) - len(rest) - 1
		default:
			return "", Usagef("--output %q: unknown substitution %%%c (use %%q{VAR}, %%h, %%p, %%n or %%%%)", name, name[i])
		}
	}
	return b.String(), nil
}

// envSubst reads the {VAR} after %q and returns its value and the rest.
func envSubst(name, s string) (string, string, error) {
	end := strings.IndexByte(s, '}')
	if !strings.HasPrefix(s, "{") || end < 0 {
		return "", "", Usagef("--output %q: %%q needs {VAR}", name)
	}
	key := s[1:end]
	v, ok := os.LookupEnv(key)
	if !ok {
		return "", "", Usagef("--output %q: environment variable %s is not set", name, key)
	}
	return v, s[end+1:], nil
}
