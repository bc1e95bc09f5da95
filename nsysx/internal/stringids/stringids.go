// Package stringids is the one check of a profile's names that stats'
// reports, analyze's rules, the recipes and the timeline export share: a
// profile whose StringIds table is absent, or holds no names, has no names
// to show, and is SKIPPED with the reason instead of giving blank names.
package stringids

import "context"

// Missing is the SKIPPED message of the profile at path when its
// StringIds table is absent (has false) or holds no names (n == 0), ""
// when it has names. The first wording is nsys's.
func Missing(path string, has bool, n int) string {
	switch {
	case !has:
		return path + " file does not contain StringIds table."
	case n == 0:
		return path + " file has an empty StringIds table (no names)."
	}
	return ""
}

// Profile is what Check reads of a profile (*nsysx.Profile, whose Load
// gives tables of type T).
type Profile[T any] interface {
	HasTable(name string) bool
	StringsErr(ctx context.Context) error
	Load(ctx context.Context, table string, cols ...string) (T, error)
}

// Check is Missing for the profile p at path, rows counting a loaded
// table's rows; err is the error of a StringIds table that cannot be read.
func Check[T any](ctx context.Context, p Profile[T], path string, rows func(T) int) (msg string, err error) {
	if err := p.StringsErr(ctx); err != nil {
		return "", err
	}
	has, n := p.HasTable("StringIds"), 0
	if has {
		t, err := p.Load(ctx, "StringIds", "id")
		if err != nil {
			return "", err
		}
		n = rows(t)
	}
	return Missing(path, has, n), nil
}
