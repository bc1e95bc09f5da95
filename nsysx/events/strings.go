package events

import (
	"context"

	"github.com/nsysx/nsysx/nsysx/model"
)

// The one check of a profile's names that stats' reports, analyze's rules,
// the recipes and the timeline export share: a profile whose StringIds
// table is absent, or holds no names, has no names to show, and is SKIPPED
// with the reason instead of giving blank names.

// NamesMissing is the SKIPPED message of the profile at path when its
// StringIds table is absent (has false) or holds no names (n == 0), ""
// when it has names (n > 0, or n < 0: not counted). The first wording is
// nsys's.
func NamesMissing(path string, has bool, n int) string {
	switch {
	case !has:
		return path + " file does not contain " + TableStringIds + " table."
	case n == 0:
		return path + " file has an empty " + TableStringIds + " table (no names)."
	}
	return ""
}

// CheckNames is NamesMissing for p at path; err is the error of a
// StringIds table that cannot be read.
func CheckNames(ctx context.Context, p *model.Profile, path string) (msg string, err error) {
	if err := p.StringsErr(ctx); err != nil {
		return "", err
	}
	has, n := p.HasTable(TableStringIds), 0
	if has {
		t, err := p.Load(ctx, TableStringIds, "id")
		if err != nil {
			return "", err
		}
		n = t.N
	}
	return NamesMissing(path, has, n), nil
}
