package format

import (
	"strconv"
	"strings"
)

// Units selects display units, as the unit options of every text format do.
// Unit names are nsys's (case-insensitive): ns, us, ms, sec; B, KB, KiB, MB,
// MiB, GB, GiB; gidint, gidhex, gidsubint, gidsubhex; uint, hex. An empty or
// unknown name means the category's default (ns, MB, gidint, hex), as nsys
// silently ignores unknown unit names.
type Units struct {
	TS, Dur   string // timestamps and durations
	Mem, Thru string // sizes and throughputs (shown per second)
	GID, Addr string // global IDs and addresses
	NoConv    bool   // show every value in its source unit
	NoHdrUnit bool   // drop the " (unit)" suffix from headers
}

// category is a column tag's unit category.
type category uint8

const (
	catNone category = iota
	catTS
	catDur
	catMem
	catThru
	catGID
	catAddr
	catRatio
)

var categories = map[string]category{
	"ts": catTS, "dur": catDur, "mem": catMem, "thru": catThru,
	"gid": catGID, "addr": catAddr, "ratio": catRatio,
}

// unit is one display or source unit.
type unit struct {
	name  string // as nsys prints it
	scale int64  // ns or bytes per unit; 0 for gid, addr and ratio units
	prec  int    // decimals printed after a floating conversion
}

var (
	timeUnits = []unit{{"ns", 1, 1}, {"us", 1e3, 3}, {"ms", 1e6, 4}, {"sec", 1e9, 4}}
	byteUnits = []unit{{"B", 1, 1}, {"KB", 1e3, 2}, {"KiB", 1 << 10, 2}, {"MB", 1e6, 3},
		{"MiB", 1 << 20, 3}, {"GB", 1e9, 3}, {"GiB", 1 << 30, 3}}
	gidUnits   = []unit{{"gidint", 0, 0}, {"gidhex", 0, 0}, {"gidsubint", 0, 0}, {"gidsubhex", 0, 0}}
	addrUnits  = []unit{{"uint", 0, 0}, {"hex", 0, 0}}
	ratioUnits = []unit{{"%", 0, 0}}
)

// unitsOf lists the units valid for c; the first is the default source unit.
func unitsOf(c category) []unit {
	switch c {
	case catTS, catDur:
		return timeUnits
	case catMem, catThru:
		return byteUnits
	case catGID:
		return gidUnits
	case catAddr:
		return addrUnits
	case catRatio:
		return ratioUnits
	}
	return nil
}

// lookupUnit finds name (case-insensitive) among the units of c.
func lookupUnit(c category, name string) (unit, bool) {
	for _, u := range unitsOf(c) {
		if strings.EqualFold(u.name, name) {
			return u, true
		}
	}
	return unit{}, false
}

// defaultSource is the unit of a tag without one ("dur", "mem", "addr").
func defaultSource(c category) unit {
	if c == catAddr {
		return addrUnits[1] // hex: "addr" alone is shown unchanged
	}
	return unitsOf(c)[0]
}

// defaultDisplay is the unit shown when no option asks for another.
func defaultDisplay(c category) unit {
	switch c {
	case catMem, catThru:
		return byteUnits[3] // MB
	case catAddr:
		return addrUnits[1] // hex
	}
	return unitsOf(c)[0]
}

// parseTag splits a column name "Label:category[_unit][:ignored]". cat is
// catNone when the tag is missing or not a known category and unit.
func parseTag(name string) (label string, cat category, src unit) {
	label, rest, ok := strings.Cut(name, ":")
	if !ok {
		return name, catNone, unit{}
	}
	tag, _, _ := strings.Cut(rest, ":")
	cs, us, hasUnit := strings.Cut(tag, "_")
	cat, ok = categories[strings.ToLower(cs)]
	if !ok {
		return label, catNone, unit{}
	}
	if !hasUnit {
		return label, cat, defaultSource(cat)
	}
	src, ok = lookupUnit(cat, us)
	if !ok {
		return label, catNone, unit{}
	}
	return label, cat, src
}

// field is the Units field that selects the display unit of c; nil for the
// categories no option sets (catNone, catRatio).
func (u *Units) field(c category) *string {
	fields := [...]*string{catTS: &u.TS, catDur: &u.Dur, catMem: &u.Mem,
		catThru: &u.Thru, catGID: &u.GID, catAddr: &u.Addr}
	if int(c) < len(fields) {
		return fields[c]
	}
	return nil
}

// display returns the unit u selects for category c.
func (u Units) display(c category) unit {
	if f := u.field(c); f != nil {
		if d, ok := lookupUnit(c, *f); ok {
			return d
		}
	}
	return defaultDisplay(c)
}

// column is how one result column is headed and converted.
type column struct {
	header string
	conv   func(string) string // nil: cells pass unchanged
}

// planColumn works out the header and the cell conversion of a column.
func planColumn(name string, u Units) column {
	label, cat, src := parseTag(name)
	if cat == catNone {
		return column{header: label}
	}
	dst := u.display(cat)
	if u.NoConv {
		dst = src
	}
	col := column{header: label}
	if !u.NoHdrUnit {
		col.header += headerSuffix(cat, dst)
	}
	if dst.name == src.name {
		return col
	}
	switch cat {
	case catTS, catDur:
		col.conv = timeConv(src, dst)
	case catMem, catThru:
		col.conv = byteConv(src, dst)
	case catGID:
		col.conv = gidConv(src, dst)
	case catAddr:
		col.conv = addrConv(src, dst)
	}
	return col
}

func headerSuffix(c category, u unit) string {
	switch c {
	case catGID, catAddr:
		return ""
	case catThru:
		return " (" + u.name + "/s)"
	}
	return " (" + u.name + ")"
}

// timeConv converts times. Towards a smaller unit an integer is multiplied in
// int64 (wrapping as C does) and stays an integer; everything else is
// multiplied as a double and printed with the display unit's decimals.
func timeConv(src, dst unit) func(string) string {
	return func(s string) string {
		class, _ := classify(s)
		if class == notNumber {
			return s
		}
		if src.scale > dst.scale {
			f := src.scale / dst.scale
			if class == intNumber {
				return strconv.FormatInt(parseInt(s)*f, 10)
			}
			return fixed(parseFloat(s)*float64(f), dst.prec)
		}
		return fixed(parseFloat(s)*(float64(src.scale)/float64(dst.scale)), dst.prec)
	}
}

// byteConv converts sizes: to bytes first (in int64 for integers, wrapping),
// then divided as a double by the display unit.
func byteConv(src, dst unit) func(string) string {
	return func(s string) string {
		class, _ := classify(s)
		if class == notNumber {
			return s
		}
		var b float64
		if class == intNumber {
			b = float64(parseInt(s) * src.scale)
		} else {
			b = parseFloat(s) * float64(src.scale)
		}
		return fixed(b/float64(dst.scale), dst.prec)
	}
}

// gidConv converts global IDs between their integer and hex forms.
func gidConv(src, dst unit) func(string) string {
	return func(s string) string {
		v, ok := idValue(s, src.name == "gidint", src.name == "gidhex")
		if !ok {
			return s
		}
		switch dst.name {
		case "gidint":
			return strconv.FormatInt(int64(v), 10)
		case "gidhex":
			return hexID(v)
		case "gidsubint":
			return pad(v>>56&0xFF, 10, 3) + ":" + pad(v>>48&0xFF, 10, 3) + ":" +
				pad(v>>24&0xFFFFFF, 10, 8) + ":" + pad(v&0xFFFFFF, 10, 8)
		case "gidsubhex":
			return pad(v>>56&0xFF, 16, 2) + ":" + pad(v>>48&0xFF, 16, 2) + ":" +
				pad(v>>24&0xFFFFFF, 16, 6) + ":" + pad(v&0xFFFFFF, 16, 6)
		}
		return s
	}
}

// addrConv converts addresses between unsigned integers and hex. Negative
// values are left alone.
func addrConv(src, dst unit) func(string) string {
	return func(s string) string {
		if strings.HasPrefix(s, "-") {
			return s
		}
		v, ok := idValue(s, src.name == "uint", src.name == "hex")
		if !ok {
			return s
		}
		if dst.name == "hex" {
			return hexID(v)
		}
		return strconv.FormatUint(v, 10)
	}
}

// idValue reads an integer cell as a 64-bit pattern: decimal (negative values
// as two's complement) or, for hex sources, its digits read in base 16.
func idValue(s string, dec, hex bool) (uint64, bool) {
	if class, _ := classify(s); class != intNumber {
		return 0, false
	}
	switch {
	case dec && strings.HasPrefix(s, "-"):
		return uint64(parseInt(s)), true
	case dec:
		v, _ := strconv.ParseUint(strings.TrimPrefix(s, "+"), 10, 64) // clamps
		return v, true
	case hex && !strings.HasPrefix(s, "-"):
		v, _ := strconv.ParseUint(strings.TrimPrefix(s, "+"), 16, 64)
		return v, true
	}
	return 0, false
}

func hexID(v uint64) string { return "0x" + strings.ToUpper(strconv.FormatUint(v, 16)) }

func pad(v uint64, base, n int) string {
	s := strings.ToUpper(strconv.FormatUint(v, base))
	if len(s) < n {
		s = strings.Repeat("0", n-len(s)) + s
	}
	return s
}
