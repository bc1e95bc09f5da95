package testutil

import "strings"

// ErrorHas tells whether err is an error whose message holds every one of
// subs: the usual check of a failure's wording, nil counting as no match.
func ErrorHas(err error, subs ...string) bool {
	if err == nil {
		return false
	}
	for _, s := range subs {
		if !strings.Contains(err.Error(), s) {
			return false
		}
	}
	return true
}
