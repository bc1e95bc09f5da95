package format

import (
	"os"
	"strings"
)

// commaLocales group digits with ',' every three digits and use '.' as the
// decimal point (glibc's LC_NUMERIC for these language_territory pairs).
var commaLocales = map[string]bool{
	"en_US": true, "en_GB": true, "en_AU": true, "en_CA": true, "en_NZ": true,
	"en_IE": true, "en_SG": true, "en_PH": true, "ja_JP": true, "ko_KR": true,
	"zh_CN": true, "zh_TW": true, "zh_HK": true, "zh_SG": true,
}

// EnvLocale is the locale nsys's number formatting follows: LC_ALL, else
// LC_NUMERIC, else LANG.
func EnvLocale() string {
	for _, k := range []string{"LC_ALL", "LC_NUMERIC", "LANG"} {
		if v := os.Getenv(k); v != "" {
			return v
		}
	}
	return ""
}

// ThousandsSep returns the digit group separator of a locale name such as
// "en_US.UTF-8": "," for the English, Chinese, Japanese and Korean locales
// that use it, "" for C, POSIX and every other locale.
func ThousandsSep(locale string) string {
	name, _, _ := strings.Cut(locale, ".")
	name, _, _ = strings.Cut(name, "@")
	if commaLocales[name] {
		return ","
	}
	return ""
}

// sep is the separator s renders with: its Locale, else the environment's.
func (s Spec) sep() string {
	if s.Locale != "" {
		return ThousandsSep(s.Locale)
	}
	return ThousandsSep(EnvLocale())
}
