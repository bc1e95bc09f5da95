package nsysx

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"strings"
	"testing"
)

func quickCSV(r *Result) string {
	var b strings.Builder
	if r.Len() == 0 {
		return ""
	}
	q := func(s string) string {
		if strings.Contains(s, ",") {
			return `"` + s + `"`
		}
		return s
	}
	var h []string
	for _, c := range r.Visible() {
		l := c.Label()
		switch strings.SplitN(c.Tag(), "_", 2)[0] {
		case "dur", "ts":
			l += " (ns)"
		case "ratio":
			l += " (%)"
		}
		h = append(h, q(l))
	}
	b.WriteString(strings.Join(h, ",") + "\n")
	for i := 0; i < r.Len(); i++ {
		var f []string
		for _, c := range r.Visible() {
			f = append(f, q(c.Text(i)))
		}
		b.WriteString(strings.Join(f, ",") + "\n")
	}
	return b.String()
}

func readGolden(t *testing.T, path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		b2, err2 := os.ReadFile(path + ".gz")
		if err2 != nil {
			t.Skip("no golden", path)
		}
		z, _ := gzip.NewReader(bytes.NewReader(b2))
		b, _ = io.ReadAll(z)
	}
	return string(b)
}

func TestQuick(t *testing.T) {
	for _, prof := range []string{"train", "fixed", "cnn", "bt", "sync", "rank0", "rank1"} {
		p, err := Open("../../shared/testdata/profiles/" + prof + ".sqlite")
		if err != nil {
			t.Fatal(err)
		}
		for _, rep := range strings.Split(os.Getenv("QUICK"), ",") {
			r, err := p.Stats(rep)
			if err != nil {
				t.Fatal(err)
			}
			got := quickCSV(r)
			want := readGolden(t, "../../shared/testdata/golden/"+prof+"/"+strings.ReplaceAll(strings.ReplaceAll(rep, ":", "_"), "-", "_")+".csv")
			if got != want {
				gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
				for i := range wl {
					if i >= len(gl) || gl[i] != wl[i] {
						g := "<none>"
						if i < len(gl) {
							g = gl[i]
						}
						t.Errorf("%s %s line %d (of %d/%d):\n got %s\nwant %s", prof, rep, i, len(gl), len(wl), g, wl[i])
						break
					}
				}
			}
		}
	}
}
